/**
 * Chooses the settlement backend (`SETTLEMENT`): `ledger`, the embedded default that records
 * payments without broadcasting them; `facilitator`, a remote x402 facilitator; `local-chain`,
 * in-process chains for tests and demos. A backend that signs Solana transactions itself (or
 * through its facilitator) names the fee payer the service must announce in `extra.feePayer`.
 */
import type { AnalyticsConfig } from "../../../../config/analytics.js";
import type { AnalyticsContract } from "../../../contract/analytics-contract.js";
import { deployedNetworks } from "../../x402/requirements.js";
import { ledgerBackend, type SettlementBackend } from "../settlement.js";

export interface SelectedBackend {
  backend: SettlementBackend;
  /** The Solana fee payer this backend settles with, when it is not the configured one. */
  feePayer?: string;
  close(): Promise<void>;
}

/** The reason codes the contract lets the service answer with. */
export function contractReasons(contract: AnalyticsContract): Set<string> {
  const schemas = contract.document.components.schemas as Record<string, { enum?: string[] }>;
  return new Set(schemas["X402.PaymentErrorReason"]?.enum ?? []);
}

/** The deployment's networks, each with the RPC endpoint its chain is read at (`SETTLEMENT_RPC_<NETWORK>`, else the contract's). */
export function settlementNetworks(config: AnalyticsConfig) {
  return deployedNetworks(config).map((target) => ({
    ...target,
    rpc: config.settlement.rpc[target.network] ?? target.rpc,
  }));
}

export async function createSettlementBackend({
  contract,
  config,
}: {
  contract: AnalyticsContract;
  config: AnalyticsConfig;
}): Promise<SelectedBackend> {
  const none = async () => {};
  const { mode, facilitator } = config.settlement;
  switch (mode) {
    case "ledger":
      return { backend: ledgerBackend, close: none };
    case "facilitator": {
      // Loaded on demand, as the chains' clients it reads with (viem, @solana/kit) are: the default start needs neither.
      const [{ rpcSettlementState }, { facilitatorBackend, supportedFeePayer }] = await Promise.all([
        import("./chain-status.js"),
        import("./facilitator.js"),
      ]);
      const networks = settlementNetworks(config);
      const options = {
        ...(facilitator as NonNullable<typeof facilitator>),
        reasons: contractReasons(contract),
        state: rpcSettlementState(networks),
      };
      const solana = networks.find((target) => target.family === "svm");
      if (!solana) throw new Error("the network table names no Solana network");
      const feePayer = await supportedFeePayer(options, solana.network);
      return { backend: facilitatorBackend(options), feePayer, close: none };
    }
    case "local-chain": {
      // Loaded on demand: hardhat and litesvm are development dependencies.
      const { startLocalChains } = await import("./local-chain/index.js");
      const chains = await startLocalChains({ config });
      return { backend: chains.backend, feePayer: chains.feePayer, close: () => chains.close() };
    }
  }
}
