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
  /** Resolves with a valid insight, or rejects once every attempt failed (the caller then answers 206). */
  write(request: InsightRequest, signal?: AbortSignal): Promise<Insight>;
}
