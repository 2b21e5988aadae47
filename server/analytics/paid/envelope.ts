/**
 * Assembles the response envelope around a handler's outcome: the model's insight when it answers,
 * otherwise (every attempt failed) a 206 with the raw data and the rule engine's signal, and the
 * model's failure for the caller to log and count.
 */
import { redactSecrets } from "../../http/redact.js";
import type { Clock } from "../clock.js";
import type { OperationName } from "../contract/operation-types.js";
import { causeOf, type InsightCause, type InsightWriter } from "../insight/types.js";
import type { Outcome } from "../segments/types.js";

export interface Envelope {
  data: unknown;
  insight: string | null;
  signal: string;
  confidence: number;
  sources: string[];
  model_used: string | null;
  latency_ms: number;
  timestamp: string;
}

export async function assembleEnvelope(
  outcome: Outcome<OperationName>,
  {
    writer,
    clock,
    operation,
    summary,
    signals,
    startedAt,
  }: {
    writer: InsightWriter;
    clock: Clock;
    operation: string;
    summary: string;
    signals: readonly string[];
    startedAt: number;
  },
): Promise<{ status: 200 | 206; body: Envelope; failure?: { cause: InsightCause; message: string } }> {
  let failure: { cause: InsightCause; message: string } | undefined;
  const insight = await writer
    .write({ operation, summary, signals, data: outcome.data, baseline: outcome.baseline, brief: outcome.brief })
    .catch((error: unknown) => {
      failure = { cause: causeOf(error), message: redactSecrets(String((error as Error)?.message ?? error)) };
      return null;
    });
  const body: Envelope = {
    data: outcome.data,
    insight: insight?.insight ?? null,
    signal: insight?.signal ?? outcome.baseline.signal,
    confidence: insight?.confidence ?? outcome.baseline.confidence,
    sources: [...new Set(outcome.sources)],
    model_used: insight ? writer.model : null,
    latency_ms: Math.max(0, Math.round(performance.now() - startedAt)),
    timestamp: new Date(clock.now()).toISOString(),
  };
  return insight ? { status: 200, body } : { status: 206, body, failure };
}
