/**
 * Wires the analytics service from its configuration (read once, server/config/): contract,
 * providers, insight writer, verifier, ledger, settlement and recovery. Everything defaults to the
 * embedded, offline implementations.
 */
import type { Logger } from "pino";
import { familyOf } from "../../lib/networks.js";
import type { AnalyticsConfig } from "../config/analytics.js";
import { type OperationsConfig, operationsConfig } from "../config/operations.js";
import type { StoreSettings } from "../config/store-settings.js";
import type { Database } from "../db/database.js";
import { createServiceMetrics } from "../ops/metrics.js";
import { pingChecks } from "../ops/readiness.js";
import { createAnalyticsApp } from "./app.js";
import { type Clock, systemClock } from "./clock.js";
import { type AnalyticsContract, loadAnalyticsContract } from "./contract/analytics-contract.js";
import { chatCompletionsWriter } from "./insight/chat-completions.js";
import { embeddedInsightWriter } from "./insight/embedded.js";
import { prometheusObservers } from "./metrics.js";
import { openAnalyticsStores } from "./open-stores.js";
import { createExactVerifier } from "./payments/exact/verifier.js";
import { createPaymentGate, type GateOptions, type PaymentGate } from "./payments/gate/gate.js";
import { splitPayment } from "./payments/ledger/split.js";
import type { LedgerStore } from "./payments/ledger/store.js";
import { observedBackend, observedGate } from "./payments/reporting/reporting.js";
import { createSettlementBackend } from "./payments/settlement/backends/index.js";
import { createRecovery } from "./payments/settlement/recovery.js";
import { logDevelopmentKey } from "./payments/x402/receipts/key.js";
import { createProviders } from "./providers/index.js";
import { createSegmentContext } from "./segments/derived.js";
import { handlers } from "./segments/index.js";

export interface AnalyticsService {
  app: ReturnType<typeof createAnalyticsApp>;
  ledger: LedgerStore;
  close(): Promise<void>;
}

interface AnalyticsServiceOptions {
  logger: Logger;
  clock?: Clock;
  contract?: AnalyticsContract;
  /** Where the ledger and the cache live (config/store-settings.ts); default: SQLite and this process's memory. */
  stores?: StoreSettings;
  /** The database of `stores`, when the caller shares one pool between services. */
  database?: Database;
  /** The metrics token and the readiness bound (`operationsConfig`); default: an open page, the default bound. */
  operations?: OperationsConfig;
}

export async function createAnalyticsService(
  configured: AnalyticsConfig,
  {
    logger,
    clock = systemClock,
    contract = loadAnalyticsContract(),
    stores: storeSettings = { workers: 1 },
    database,
    operations = operationsConfig({}),
  }: AnalyticsServiceOptions,
): Promise<AnalyticsService> {
  for (const warning of configured.warnings) logger.warn(warning);
  if (configured.receipts?.development) logDevelopmentKey(logger, configured.receipts);
  const settlement = await createSettlementBackend({ contract, config: configured });
  // A backend that pays Solana fees itself (local chain, facilitator) dictates the fee payer to announce.
  const config = settlement.feePayer ? { ...configured, feePayer: settlement.feePayer } : configured;
  // This service's metrics, and what its parts report to them.
  const metrics = createServiceMetrics();
  const observe = prometheusObservers(metrics.registry);
  const backend = observedBackend(settlement.backend, observe.payments);
  const stores = await openAnalyticsStores(storeSettings, {
    sqlite: { file: config.ledger.path, synchronous: config.ledger.synchronous },
    database,
    clock,
    logger,
    cacheObserver: observe.cache,
  });
  const { ledger } = stores;
  const insight = config.insight.baseUrl
    ? chatCompletionsWriter({ ...config.insight, baseUrl: config.insight.baseUrl })
    : embeddedInsightWriter;
  const split = paymentSplit(contract, config);
  const { tasks } = stores;
  const recovery = createRecovery({ ledger, tasks, backend, clock, logger, split, observer: observe.payments });
  // Payments a previous run left unresolved are resolved before the first request is taken.
  await recovery.run();
  recovery.start(config.payments.recoveryIntervalMs);
  const { cache } = stores.cache;
  const upstream = createProviders(config.providers, { seed: config.seed, clock, cache, observer: observe.upstream });
  const app = createAnalyticsApp({
    contract,
    config,
    handlers,
    segment: createSegmentContext({ providers: upstream.providers, clock, cache }),
    providerModes: upstream.modes,
    settlementMode: backend.mode,
    cacheStatus: stores.cache.status,
    insight,
    gate: observedGate(paymentGate({ config, clock, ledger, backend, split, logger }), observe.payments),
    ledger,
    tasks,
    clock,
    logger,
    // What this instance needs to serve, one line per part that can be asked. The shared cache is not
    // among them: without it the service answers from upstream and its memory.
    operations: {
      ...operations,
      metrics,
      readiness: pingChecks({ ledger, [`settlement:${backend.mode}`]: backend }),
    },
    insightObserver: observe.insight,
  });
  logger.info({ profile: config.profile, settlement: backend.mode, insight: insight.model }, "analytics service ready");
  return {
    app,
    ledger,
    close: async () => {
      await recovery.stop();
      upstream.close();
      await stores.close();
      await settlement.close();
    },
  };
}

/** A payment's amount on a network, split between the service's and the treasury's address there. */
function paymentSplit(contract: AnalyticsContract, config: AnalyticsConfig): GateOptions["split"] {
  const treasuryBps = contract.paid[0]?.payment.split.treasuryBps ?? 1000;
  return (network, amount) => {
    const family = familyOf(network);
    const parts = splitPayment(amount, treasuryBps);
    return {
      service: { address: config.payTo[family], amount: parts.service },
      treasury: { address: config.treasury[family], amount: parts.treasury },
    };
  };
}

/** The gate of paid requests: the exact-scheme verifier, the ledger and settlement, with the configured bounds. */
function paymentGate({
  config,
  clock,
  logger,
  ...parts
}: { config: AnalyticsConfig; clock: Clock; logger: Logger } & Pick<
  GateOptions,
  "ledger" | "backend" | "split"
>): PaymentGate {
  return createPaymentGate({
    verifier: createExactVerifier({ config, clock }),
    ...parts,
    clock,
    answerTimeoutMs: config.payments.answerTimeoutMs,
    recoveryIntervalMs: config.payments.recoveryIntervalMs,
    paymentIdentifier: config.payments.paymentIdentifier,
    warn: (fields, message) => logger.warn(fields, message),
  });
}
