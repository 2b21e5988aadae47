/**
 * Analytics configuration from the environment. Every value has an embedded default so that
 * `npm start` needs no key and no network; the recipient addresses default to the contract's
 * clearly marked development addresses, which the mainnet profile refuses.
 */
import { ConfigError, positiveInt, publicBaseUrl, trustProxy } from "../config/env.js";
import type { DevelopmentDefaults } from "./contract.js";

export { ConfigError };

export type Profile = "testnet" | "mainnet";

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
}

export interface AnalyticsConfig {
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
  validateResponses: boolean;
  seed: string;
  insight: InsightConfig;
}

export function loadAnalyticsConfig(env: Record<string, string | undefined>, defaults: DevelopmentDefaults): AnalyticsConfig {
  const profile = (env.X402_PROFILE ?? "testnet") as Profile;
  if (profile !== "testnet" && profile !== "mainnet") throw new ConfigError(`X402_PROFILE must be testnet or mainnet, got "${profile}"`);
  const config: AnalyticsConfig = {
    profile,
    payTo: { evm: env.PAY_TO_EVM ?? defaults.evm.payTo, svm: env.PAY_TO_SOLANA ?? defaults.svm.payTo },
    treasury: { evm: env.TREASURY_EVM ?? defaults.evm.treasury, svm: env.TREASURY_SOLANA ?? defaults.svm.treasury },
    feePayer: env.SOLANA_FEE_PAYER ?? defaults.svm.feePayer,
    maxTimeoutSeconds: positiveInt(env, "X402_MAX_TIMEOUT_SECONDS", defaults.maxTimeoutSeconds),
    publicBaseUrl: publicBaseUrl(env, "PUBLIC_BASE_URL"),
    trustProxy: trustProxy(env),
    payments: {
      answerTimeoutMs: positiveInt(env, "PAID_ANSWER_TIMEOUT_MS", 30_000),
      recoveryIntervalMs: positiveInt(env, "RECOVERY_INTERVAL_MS", 5_000),
    },
    validateResponses: env.VALIDATE_RESPONSES ? env.VALIDATE_RESPONSES !== "false" : env.NODE_ENV !== "production",
    seed: env.DATA_SEED ?? "defi-intel",
    insight: {
      baseUrl: env.INSIGHT_BASE_URL?.replace(/\/+$/, "") || undefined,
      model: env.INSIGHT_MODEL ?? "gpt-4o-mini",
      apiKey: env.INSIGHT_API_KEY,
      timeoutMs: positiveInt(env, "INSIGHT_TIMEOUT_MS", 8000),
      attempts: positiveInt(env, "INSIGHT_ATTEMPTS", 2),
    },
  };
  if (config.maxTimeoutSeconds < 6) throw new ConfigError("X402_MAX_TIMEOUT_SECONDS must be at least 6 (validBefore needs 6 s of margin)");
  if (profile === "mainnet") {
    const devAddresses = new Set([
      defaults.evm.payTo,
      defaults.evm.treasury,
      defaults.svm.payTo,
      defaults.svm.treasury,
      defaults.svm.feePayer,
    ]);
    // a facilitator (or a local chain) announces its own fee payer, so only `ledger` settlement needs one configured
    const feePayerConfigured = (env.SETTLEMENT ?? "ledger") === "ledger";
    const used = Object.entries({
      PAY_TO_EVM: config.payTo.evm,
      PAY_TO_SOLANA: config.payTo.svm,
      TREASURY_EVM: config.treasury.evm,
      TREASURY_SOLANA: config.treasury.svm,
      ...(feePayerConfigured ? { SOLANA_FEE_PAYER: config.feePayer } : {}),
    }).filter(([, value]) => devAddresses.has(value));
    if (used.length) throw new ConfigError(`the mainnet profile needs real addresses; set ${used.map(([name]) => name).join(", ")}`);
    if (!config.publicBaseUrl)
      throw new ConfigError(
        "the mainnet profile needs PUBLIC_BASE_URL (the origin clients reach), so that no request header chooses the URLs paid for",
      );
  }
  return config;
}
