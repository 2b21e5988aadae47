/**
 * Chooses the settlement backend (`SETTLEMENT`): `ledger`, the embedded default that records
 * payments without broadcasting them; `facilitator`, a remote x402 facilitator; `local-chain`,
 * in-process chains for tests and demos. A backend that signs Solana transactions itself (or
 * through its facilitator) names the fee payer the service must announce in `extra.feePayer`.
 */
import { type AnalyticsConfig, ConfigError } from "../../config.js";
import type { AnalyticsContract } from "../../contract.js";
import { deployedNetworks } from "../requirements.js";
import { ledgerBackend, type SettlementBackend } from "../settlement.js";
import { rpcSettlementState } from "./chain-status.js";
import { facilitatorBackend, supportedFeePayer } from "./facilitator.js";

export interface SelectedBackend {
  backend: SettlementBackend;
  /** The Solana fee payer this backend settles with, when it is not the configured one. */
  feePayer?: string;
  close(): Promise<void>;
}

/** x402.org's public facilitator settles the testnets only; mainnet needs FACILITATOR_URL. */
export const DEFAULT_TESTNET_FACILITATOR = "https://x402.org/facilitator";
const DEFAULT_FACILITATOR_TIMEOUT_MS = 20_000;

function facilitatorOptions(env: Record<string, string | undefined>, config: AnalyticsConfig) {
  const url = env.FACILITATOR_URL || (config.profile === "testnet" ? DEFAULT_TESTNET_FACILITATOR : undefined);
  if (!url) throw new ConfigError("SETTLEMENT=facilitator on the mainnet profile needs FACILITATOR_URL");
  const timeout = env.FACILITATOR_TIMEOUT_MS ? Number(env.FACILITATOR_TIMEOUT_MS) : DEFAULT_FACILITATOR_TIMEOUT_MS;
  if (!Number.isInteger(timeout) || timeout <= 0)
    throw new ConfigError(`FACILITATOR_TIMEOUT_MS must be a positive integer, got "${env.FACILITATOR_TIMEOUT_MS}"`);
  return { url, authHeader: env.FACILITATOR_AUTH_HEADER || undefined, timeoutMs: timeout };
}

/** The reason codes the contract lets the service answer with. */
function contractReasons(contract: AnalyticsContract): Set<string> {
  const schemas = contract.document.components.schemas as Record<string, { enum?: string[] }>;
  return new Set(schemas["X402.PaymentErrorReason"]?.enum ?? []);
}

/** The profile's Solana network (the root prefix's). */
function solanaNetwork(contract: AnalyticsContract, config: AnalyticsConfig): string {
  const route = contract.paid.find((r) => r.payment.network.family === "svm");
  if (!route) throw new Error("the contract names no Solana network");
  return route.payment.network[config.profile].network;
}

export async function createSettlementBackend(
  mode: string,
  env: Record<string, string | undefined>,
  { contract, config }: { contract: AnalyticsContract; config: AnalyticsConfig },
): Promise<SelectedBackend> {
  const none = async () => {};
  switch (mode) {
    case "ledger":
      return { backend: ledgerBackend, close: none };
    case "facilitator": {
      const networks = deployedNetworks(config);
      const options = {
        ...facilitatorOptions(env, config),
        reasons: contractReasons(contract),
        state: rpcSettlementState(networks, env),
      };
      const feePayer = await supportedFeePayer(options, solanaNetwork(contract, config));
      return { backend: facilitatorBackend(options), feePayer, close: none };
    }
    case "local-chain": {
      // Loaded on demand: hardhat and litesvm are development dependencies.
      const { startLocalChains } = await import("./local-chain/index.js");
      const chains = await startLocalChains({ config });
      return { backend: chains.backend, feePayer: chains.feePayer, close: () => chains.close() };
    }
    default:
      throw new ConfigError(`SETTLEMENT must be ledger, facilitator or local-chain, got "${mode}"`);
  }
}
