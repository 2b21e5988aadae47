/**
 * The `local-chain` settlement: real transfers on in-process chains, for tests and demos. One
 * hardhat chain hosts the USDC of every EVM prefix at its real address and domain; one litesvm
 * chain hosts the Solana mint at its real address. Payments signed for the profile's real networks
 * therefore verify and settle unchanged, and balances can be read back.
 */

import { familyOf } from "../../../../../../lib/networks.js";
import type { AnalyticsConfig } from "../../../../../config/analytics.js";
import { deployedNetworks } from "../../../x402/requirements.js";
import type { SettlementBackend } from "../../settlement.js";
import { type EvmChain, startEvmChain } from "./evm.js";
import { serveEvmRpc, serveSolanaRpc } from "./rpc.js";
import { type SvmChain, startSvmChain } from "./svm.js";

export interface LocalChains {
  backend: SettlementBackend;
  /** The Solana fee payer the backend signs with: the service announces it in `extra.feePayer`. */
  feePayer: string;
  evm: EvmChain;
  svm: SvmChain;
  /** Faucet: USDC of `network` for `owner`. */
  fund(network: string, owner: string, amount: bigint): Promise<void>;
  /** USDC of `network` held by `owner`, atomic units. */
  balanceOf(network: string, owner: string): Promise<bigint>;
  /** A blockhash the Solana chain accepts, for signing payments. */
  latestBlockhash(): string;
  /** The Solana JSON-RPC stand-in (only when started with `rpc: true`). */
  rpcUrl?: string;
  /** The EVM chain's JSON-RPC endpoint (only when started with `rpc: true`). */
  evmRpcUrl?: string;
  close(): Promise<void>;
}

export async function startLocalChains({
  config,
  rpc = false,
}: {
  config: AnalyticsConfig;
  /** Serve JSON-RPC endpoints of both chains on 127.0.0.1 (for clients and readers that take an RPC URL). */
  rpc?: boolean;
}): Promise<LocalChains> {
  const targets = deployedNetworks(config);
  const solana = targets.find((t) => t.family === "svm");
  if (!solana) throw new Error("the contract names no Solana network");
  const evmTokens = targets
    .filter((t) => t.family === "evm")
    .map((t) => {
      if (t.chainId === undefined || !t.eip712) throw new Error(`${t.network} lacks a chain id or an EIP-712 domain`);
      return { network: t.network, chainId: t.chainId, asset: t.asset, eip712: t.eip712 };
    });
  const [evm, svm] = await Promise.all([
    startEvmChain({ tokens: evmTokens }),
    startSvmChain({ network: solana.network, mint: solana.asset, recipients: [solana.payTo, solana.treasury] }),
  ]);
  const servers = rpc ? await Promise.all([serveSolanaRpc(svm), serveEvmRpc(evm.provider)]) : undefined;
  const isSolana = (network: string) => familyOf(network) === "svm";

  return {
    backend: {
      mode: "local-chain",
      timeoutMs: 30_000,
      settle: (payment) => (isSolana(payment.network) ? svm.settle(payment) : evm.settle(payment)),
      status: (payment) => (isSolana(payment.network) ? svm.state(payment) : evm.state(payment)),
    },
    feePayer: svm.feePayer,
    evm,
    svm,
    fund: (network, owner, amount) => (isSolana(network) ? svm.fund(owner, amount) : evm.fund(network, owner, amount)),
    balanceOf: (network, owner) => (isSolana(network) ? svm.balanceOf(owner) : evm.balanceOf(network, owner)),
    latestBlockhash: () => svm.latestBlockhash(),
    rpcUrl: servers?.[0].url,
    evmRpcUrl: servers?.[1].url,
    close: async () => void (await Promise.all((servers ?? []).map((server) => server.close()))),
  };
}
