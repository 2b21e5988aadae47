/** The insight model seam: turns an operation's data into one or two sentences and a signal. */

export interface InsightRequest {
  /** Operation name, e.g. `lpPoolDetail`. */
  operation: string;
  /** What the operation answers, e.g. `LP pool detail`. */
  summary: string;
  /** The operation's signal words; the answer must use one of them. */
  signals: readonly string[];
  data: unknown;
  /** The rule engine's reading, which the model may confirm or overrule. */
  baseline: { signal: string; confidence: number };
  /** The rule engine's own sentence about the data. */
  brief: string;
}

export interface Insight {
  insight: string;
  signal: string;
  confidence: number;
}

export interface InsightWriter {
  /** Reported as `model_used`. */
  readonly model: string;
  /**
   * Resolves with a valid insight, or rejects once every attempt failed (the caller then answers
   * 206), preferably with an `InsightFailure` saying why.
   */
  write(request: InsightRequest, signal?: AbortSignal): Promise<Insight>;
}

/**
 * Why the model gave no usable insight, the cause of a 206: no answer in time, an HTTP error
 * status, an answer that is not the requested JSON (or breaks its vocabulary), an explicit
 * refusal, a model that could not be reached; `error` for any other failure.
 */
export type InsightCause = "timeout" | "http_status" | "invalid_output" | "refusal" | "unreachable" | "error";

export class InsightFailure extends Error {
  constructor(
    readonly kind: InsightCause,
    message: string,
  ) {
    super(message);
  }
}

/** The cause of a writer's rejection. */
export const causeOf = (error: unknown): InsightCause => (error instanceof InsightFailure ? error.kind : "error");

/** Where insight outcomes are reported: the model's answer, or the cause of a 206. */
export interface InsightObserver {
  insight(event: { outcome: "answered" } | { outcome: "partial"; cause: InsightCause }): void;
}

export const unobservedInsight: InsightObserver = { insight() {} };
