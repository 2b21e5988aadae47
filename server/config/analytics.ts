/**
 * Everything the analytics service reads from its environment, read once into one typed object
 * that the service passes down (server/config/index.ts reads it with the registry's). Every value
 * has an embedded default so that `npm start` needs no key and no network; the recipient addresses
 * default to the contract's clearly marked development addresses, which the mainnet profile refuses.
 * A value that cannot work is a `ConfigError`: one line naming the variable and what it must be.
 */
import { NETWORKS } from "../../lib/networks.js";
import { type DevelopmentDefaults, loadAnalyticsContract } from "../analytics/contract/analytics-contract.js";
import { type ReceiptKey, receiptKeyOf, retiredKeysOf } from "../analytics/payments/x402/receipts/key.js";
import { type ProviderSettings, parseProviderSettings } from "../analytics/providers/settings.js";
import {
  ConfigError,
  type Env,
  evmAddress,
  flag,
  oneOf,
  port,
  positiveInt,
  present,
  publicBaseUrl,
  solanaAddress,
  trustProxy,
  url,
} from "./env.js";

export { ConfigError };

export type Profile = "testnet" | "mainnet";
export type SettlementMode = "ledger" | "facilitator" | "local-chain";

export interface InsightConfig {
  /** OpenAI-compatible base URL (e.g. `https://api.openai.com/v1`, `http://localhost:11434/v1`); unset = embedded writer. */
  baseUrl?: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
  attempts: number;
}

export interface PaymentSettings {
  /** Longest time from a payment's admission to its answer being ready; past it the payment is released. */
  answerTimeoutMs: number;
  /** How often recovery looks for payments left unresolved (by a crash, a failed settlement). */
  recoveryIntervalMs: number;
  /** x402's `payment-identifier` (docs/payments.md): whether a v2 payment must carry an id, and how long its answer is kept. */
  paymentIdentifier: {
    /** `PAYMENT_IDENTIFIER_REQUIRED`: a v2 payment without an id is a 400 naming the field. */
    required: boolean;
    /** `PAYMENT_IDENTIFIER_RETENTION_SECONDS`, in ms: how long an id's answer (and so the id) is kept after its purchase. */
    retentionMs: number;
  };
}

export interface LedgerSettings {
  /** `LEDGER_DB`: the SQLite file (`:memory:` keeps nothing). */
  path: string;
  /** `LEDGER_SYNCHRONOUS`: `normal` survives a process crash, `full` also a power loss. */
  synchronous: "normal" | "full";
}

export interface SettlementSettings {
  mode: SettlementMode;
  /** The remote facilitator, with `mode: "facilitator"`. */
  facilitator?: { url: string; authHeader?: string; timeoutMs: number };
  /** `SETTLEMENT_RPC_<NETWORK>`: the deployment's own RPC endpoints, by x402 v1 network name (else the contract's public ones). */
  rpc: Record<string, string>;
}

export interface AnalyticsConfig {
  /** `PORT`. */
  port: number;
  profile: Profile;
  payTo: { evm: string; svm: string };
  treasury: { evm: string; svm: string };
  /** Solana fee payer announced in `extra.feePayer`. */
  feePayer: string;
  maxTimeoutSeconds: number;
  /** Public origin used in `resource` URLs; unset = the request's own (validated) origin. */
  publicBaseUrl?: string;
  /** Express `trust proxy`: the proxies whose `X-Forwarded-*` headers count; false = none. */
  trustProxy: string | number | false;
  payments: PaymentSettings;
  ledger: LedgerSettings;
  settlement: SettlementSettings;
  providers: ProviderSettings;
  validateResponses: boolean;
  seed: string;
  insight: InsightConfig;
  /** `RECEIPT_SIGNING_KEY`: signs the offers of v2 challenges and the receipts of v2 answers; unset on mainnet = none signed. */
  receipts?: ReceiptKey;
  /** What an operator must know at every start and sees in `GET /` (a deployment that gives answers away). */
  warnings: string[];
}

/** x402.org's public facilitator settles the testnets only; mainnet needs FACILITATOR_URL. */
export const DEFAULT_TESTNET_FACILITATOR = "https://x402.org/facilitator";
export const DEFAULT_LEDGER_DB = "data/ledger.db";
const HTTP = ["https:", "http:"];

const rpcVariable = (network: string) => `SETTLEMENT_RPC_${network.toUpperCase().replaceAll("-", "_")}`;

function settlementSettings(env: Env, profile: Profile): SettlementSettings {
  const mode = oneOf(env, "SETTLEMENT", ["ledger", "facilitator", "local-chain"] as const, "ledger");
  const rpc: Record<string, string> = {};
  for (const network of NETWORKS) {
    const name = network[profile].network;
    const endpoint = url(env, rpcVariable(name), undefined, HTTP);
    if (endpoint) rpc[name] = endpoint;
  }
  if (mode !== "facilitator") return { mode, rpc };
  const facilitatorUrl = url(
    env,
    "FACILITATOR_URL",
    profile === "testnet" ? DEFAULT_TESTNET_FACILITATOR : undefined,
    HTTP,
    { base: true },
  );
  if (!facilitatorUrl) throw new ConfigError("SETTLEMENT=facilitator on the mainnet profile needs FACILITATOR_URL");
  return {
    mode,
    rpc,
    facilitator: {
      url: facilitatorUrl,
      authHeader: present(env, "FACILITATOR_AUTH_HEADER"),
      timeoutMs: positiveInt(env, "FACILITATOR_TIMEOUT_MS", 20_000),
    },
  };
}

export function loadAnalyticsConfig(
  env: Env,
  defaults: DevelopmentDefaults = loadAnalyticsContract().developmentDefaults,
): AnalyticsConfig {
  const profile = oneOf(env, "X402_PROFILE", ["testnet", "mainnet"] as const, "testnet");
  const settlement = settlementSettings(env, profile);
  const config: AnalyticsConfig = {
    port: port(env, "PORT", 4021),
    profile,
    payTo: {
      evm: evmAddress(env, "PAY_TO_EVM", defaults.evm.payTo),
      svm: solanaAddress(env, "PAY_TO_SOLANA", defaults.svm.payTo),
    },
    treasury: {
      evm: evmAddress(env, "TREASURY_EVM", defaults.evm.treasury),
      svm: solanaAddress(env, "TREASURY_SOLANA", defaults.svm.treasury),
    },
    feePayer: solanaAddress(env, "SOLANA_FEE_PAYER", defaults.svm.feePayer),
    maxTimeoutSeconds: positiveInt(env, "X402_MAX_TIMEOUT_SECONDS", defaults.maxTimeoutSeconds),
    publicBaseUrl: publicBaseUrl(env, "PUBLIC_BASE_URL"),
    trustProxy: trustProxy(env),
    payments: {
      answerTimeoutMs: positiveInt(env, "PAID_ANSWER_TIMEOUT_MS", 30_000),
      recoveryIntervalMs: positiveInt(env, "RECOVERY_INTERVAL_MS", 5_000),
      paymentIdentifier: {
        required: flag(env, "PAYMENT_IDENTIFIER_REQUIRED", false),
        retentionMs: positiveInt(env, "PAYMENT_IDENTIFIER_RETENTION_SECONDS", 86_400, 365 * 86_400) * 1000,
      },
    },
    ledger: {
      path: present(env, "LEDGER_DB") ?? DEFAULT_LEDGER_DB,
      synchronous: oneOf(env, "LEDGER_SYNCHRONOUS", ["normal", "full"] as const, "normal"),
    },
    settlement,
    providers: parseProviderSettings(env),
    validateResponses: flag(env, "VALIDATE_RESPONSES", env.NODE_ENV !== "production"),
    seed: present(env, "DATA_SEED") ?? "defi-intel",
    insight: {
      baseUrl: url(env, "INSIGHT_BASE_URL", undefined, HTTP, { base: true }),
      model: present(env, "INSIGHT_MODEL") ?? "gpt-4o-mini",
      apiKey: present(env, "INSIGHT_API_KEY"),
      timeoutMs: positiveInt(env, "INSIGHT_TIMEOUT_MS", 8000),
      attempts: positiveInt(env, "INSIGHT_ATTEMPTS", 2),
    },
    receipts: receiptKeyOf(env, "RECEIPT_SIGNING_KEY", profile, retiredKeysOf(env, "RECEIPT_RETIRED_KEYS")),
    warnings: [],
  };
  if (config.maxTimeoutSeconds < 6)
    throw new ConfigError("X402_MAX_TIMEOUT_SECONDS must be at least 6 (validBefore needs 6 s of margin)");
  if (profile === "mainnet") checkMainnet(env, config, defaults);
  if (!config.receipts)
    config.warnings.push(
      "RECEIPT_SIGNING_KEY is not set: v2 challenges carry no signed offers and v2 answers no signed receipts",
    );
  return config;
}

/** The mainnet profile takes real money: real recipients (not the development ones, in any spelling, nor a zero address), a public origin, and a settlement that moves the money. */
function checkMainnet(env: Env, config: AnalyticsConfig, defaults: DevelopmentDefaults): void {
  // EVM addresses compare in lowercase (a checksum is only a spelling); the zero addresses burn what they receive.
  const normal = (address: string) => (address.startsWith("0x") ? address.toLowerCase() : address);
  const refused = new Set(
    [
      defaults.evm.payTo,
      defaults.evm.treasury,
      defaults.svm.payTo,
      defaults.svm.treasury,
      defaults.svm.feePayer,
      `0x${"0".repeat(40)}`,
      "11111111111111111111111111111111",
    ].map(normal),
  );
  // a facilitator (or a local chain) announces its own fee payer, so only `ledger` settlement needs one configured
  const used = Object.entries({
    PAY_TO_EVM: config.payTo.evm,
    PAY_TO_SOLANA: config.payTo.svm,
    TREASURY_EVM: config.treasury.evm,
    TREASURY_SOLANA: config.treasury.svm,
    ...(config.settlement.mode === "ledger" ? { SOLANA_FEE_PAYER: config.feePayer } : {}),
  }).filter(([, value]) => refused.has(normal(value)));
  if (used.length)
    throw new ConfigError(`the mainnet profile needs real addresses; set ${used.map(([name]) => name).join(", ")}`);
  if (!config.publicBaseUrl)
    throw new ConfigError(
      "the mainnet profile needs PUBLIC_BASE_URL (the origin clients reach), so that no request header chooses the URLs paid for",
    );
  if (config.settlement.mode === "local-chain")
    throw new ConfigError(
      "X402_PROFILE=mainnet with SETTLEMENT=local-chain would settle on an in-process test chain, moving no real money; set SETTLEMENT=facilitator",
    );
  if (config.settlement.mode === "ledger") {
    if (!flag(env, "ALLOW_SIMULATED_SETTLEMENT", false))
      throw new ConfigError(
        "X402_PROFILE=mainnet with SETTLEMENT=ledger would serve paid answers without moving any money; set SETTLEMENT=facilitator, or ALLOW_SIMULATED_SETTLEMENT=true to accept it",
      );
    config.warnings.push(
      "settlement is simulated (SETTLEMENT=ledger) on the mainnet profile: paid answers are given away",
    );
  }
}
