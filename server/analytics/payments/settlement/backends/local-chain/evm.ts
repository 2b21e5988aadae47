/**
 * EVM settlement on an in-process hardhat 2.29.1 (EDR) chain. The verifier checks signatures
 * against the real testnets' EIP-712 domains, so the chain hosts MiniUSDC at each real USDC address
 * (`hardhat_setCode` of the committed runtime code) and initializes it with that network's name,
 * version and chain id: one local chain (id 31337) serves both the Base and the SKALE prefix.
 *
 * The provider comes from hardhat's EDR factory rather than the `hre` singleton: each call gets its
 * own chain, with no config file and no HARDHAT_CONFIG (a deep import, safe because hardhat is
 * pinned). A relayer, a genesis account the node signs for, pays gas and calls
 * `transferWithAuthorization` (v, r, s); the node assigns its nonces, so settlements may overlap.
 */
import { readFileSync } from "node:fs";
import { createHardhatNetworkProvider } from "hardhat/internal/hardhat-network/provider/provider.js";
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  custom,
  defineChain,
  type Hex,
  parseSignature,
  toHex,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { PaymentErrorReason, VerifiedPayment } from "../../../x402/types.js";
import type { BackendResult, InterruptedPayment, SettlementState } from "../../settlement.js";
import { evmSettlementState } from "../chain-status.js";

const artifact = JSON.parse(readFileSync(new URL("./MiniUSDC.json", import.meta.url), "utf8")) as {
  abi: Abi;
  deployedBytecode: Hex;
};
const abi = artifact.abi;

export interface EvmToken {
  network: string;
  chainId: number;
  /** The real USDC address of the network, where MiniUSDC is placed. */
  asset: string;
  eip712: { name: string; version: string };
}

export interface EvmChain {
  /** The account that pays gas and submits authorizations. */
  readonly relayer: string;
  /** Network name → token address. */
  readonly tokens: ReadonlyMap<string, string>;
  /** The chain's EIP-1193 provider, for tools and tests. */
  readonly provider: { request(args: { method: string; params?: unknown[] }): Promise<unknown> };
  settle(payment: VerifiedPayment): Promise<BackendResult>;
  /** Whether an interrupted payment's authorization was used on this chain. */
  state(payment: InterruptedPayment): Promise<SettlementState>;
  /** Faucet: mints USDC of `network` to `owner`. */
  fund(network: string, owner: string, amount: bigint): Promise<void>;
  /** Faucet: ETH for a wallet that sends its own transactions (x402 payers need none). */
  fundEth(owner: string, wei: bigint): Promise<void>;
  balanceOf(network: string, owner: string): Promise<bigint>;
}

/** The x402 EVM payload's authorization (integers as decimal strings), already verified. */
type Authorization = { from: Address; to: Address; value: string; validAfter: string; validBefore: string; nonce: Hex };

const LOCAL_CHAIN_ID = 31337;
const HARDFORK = "cancun"; // the artifact's evmVersion (scripts/compile-contracts.mjs)

/** FiatToken's revert strings, as x402 reasons. */
const REVERTS: [string, PaymentErrorReason][] = [
  ["authorization is used or canceled", "invalid_exact_evm_nonce_already_used"],
  ["transfer amount exceeds balance", "insufficient_funds"],
  ["authorization is expired", "payment_expired"],
  ["authorization is not yet valid", "invalid_exact_evm_payload_authorization_valid_after"],
  ["invalid signature", "invalid_exact_evm_payload_signature"],
];

/** A revert refuses the payment; any other error leaves the outcome unknown and is thrown again. */
function refused(error: unknown): Extract<BackendResult, { ok: false }> {
  const text = error instanceof Error ? error.message : String(error);
  const revert =
    /reverted with reason string '([^']*)'/.exec(text)?.[1] ?? (/reverted/.test(text) ? "no reason" : undefined);
  if (revert === undefined) throw error;
  const reason = REVERTS.find(([needle]) => revert.includes(needle))?.[1] ?? "invalid_transaction_state";
  return { ok: false, reason, message: `the token reverted: ${revert}` };
}

/** An in-process Hardhat network whose relayer account holds the gas to send every transaction. */
function hardhatNetwork(relayerKey: Hex) {
  return createHardhatNetworkProvider(
    {
      hardfork: HARDFORK,
      chainId: LOCAL_CHAIN_ID,
      networkId: LOCAL_CHAIN_ID,
      blockGasLimit: 30_000_000,
      minGasPrice: 0n,
      automine: true,
      intervalMining: 0,
      mempoolOrder: "priority",
      chains: new Map(),
      genesisAccounts: [{ privateKey: relayerKey, balance: (10n ** 24n).toString() }],
      allowUnlimitedContractSize: false,
      throwOnTransactionFailures: true,
      throwOnCallFailures: true,
      // Otherwise each automined block adds a second and the chain's clock runs ahead of the authorizations'.
      allowBlocksWithSameTimestamp: true,
      enableTransientStorage: false,
      enableRip7212: false,
    },
    { enabled: false },
  );
}

/** viem's reader and the relayer's writer over the in-process provider, and sending a call to its receipt. */
function clientsOf(provider: Awaited<ReturnType<typeof hardhatNetwork>>, relayer: Address) {
  const chain = defineChain({
    id: LOCAL_CHAIN_ID,
    name: "local",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [] } },
  });
  // In process, so no retries (viem would back off on errors without a code) and a short polling interval.
  const transport = custom(provider, { retryCount: 0 });
  const reader = createPublicClient({ chain, transport, pollingInterval: 5, cacheTime: 0 });
  const writer = createWalletClient({ account: relayer, chain, transport });
  const send = async (request: Parameters<typeof writer.writeContract>[0]) =>
    reader.waitForTransactionReceipt({ hash: await writer.writeContract(request) });
  return { reader, send };
}

type Clients = ReturnType<typeof clientsOf>;

/** The EIP-3009 authorization of a payment sent to its token by the relayer: simulated first, so a refusal costs no gas. */
async function transferWithAuthorization(
  clients: Clients,
  relayer: Address,
  token: Address,
  payment: VerifiedPayment,
): Promise<BackendResult> {
  const { signature, authorization: a } = payment.payload as { signature: Hex; authorization: Authorization };
  const { r, s, v, yParity } = parseSignature(signature);
  const args = [
    a.from,
    a.to,
    BigInt(a.value),
    BigInt(a.validAfter),
    BigInt(a.validBefore),
    a.nonce,
    Number(v ?? 27n + BigInt(yParity)),
    r,
    s,
  ];
  try {
    const call = { address: token, abi, functionName: "transferWithAuthorization", args };
    await clients.reader.simulateContract({ account: relayer, ...call });
    const receipt = await clients.send(call);
    if (receipt.status !== "success")
      return {
        ok: false,
        reason: "invalid_transaction_state",
        message: `transaction ${receipt.transactionHash} reverted`,
      };
    return { ok: true, transaction: receipt.transactionHash, simulated: false };
  } catch (error) {
    return refused(error);
  }
}

export async function startEvmChain({ tokens }: { tokens: EvmToken[] }): Promise<EvmChain> {
  const relayerKey = generatePrivateKey();
  const relayer = privateKeyToAccount(relayerKey).address;
  const provider = await hardhatNetwork(relayerKey);
  const clients = clientsOf(provider, relayer);
  const { reader, send } = clients;
  const addresses = new Map<string, string>();
  for (const token of tokens) {
    await provider.request({ method: "hardhat_setCode", params: [token.asset, artifact.deployedBytecode] });
    const { name, version } = token.eip712;
    await send({
      address: token.asset as Address,
      abi,
      functionName: "initialize",
      args: [name, version, BigInt(token.chainId)],
    });
    addresses.set(token.network, token.asset);
  }
  const tokenOf = (network: string) => {
    const address = addresses.get(network);
    if (!address) throw new Error(`the local EVM chain has no token for ${network}`);
    return address as Address;
  };
  return {
    relayer,
    tokens: addresses,
    provider,
    async fund(network, owner, amount) {
      await send({ address: tokenOf(network), abi, functionName: "mint", args: [owner, amount] });
    },
    async fundEth(owner, wei) {
      await provider.request({ method: "hardhat_setBalance", params: [owner, toHex(wei)] });
    },
    state: (payment) => evmSettlementState(reader, tokenOf(payment.network), payment),
    async balanceOf(network, owner) {
      return (await reader.readContract({
        address: tokenOf(network),
        abi,
        functionName: "balanceOf",
        args: [owner],
      })) as bigint;
    },
    async settle(payment) {
      if (!addresses.has(payment.network))
        return { ok: false, reason: "invalid_network", message: `no local token for ${payment.network}` };
      return transferWithAuthorization(clients, relayer, tokenOf(payment.network), payment);
    },
  };
}
