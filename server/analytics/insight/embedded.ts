/**
 * The default insight writer: deterministic, offline, and honest about it (`model_used` says
 * `embedded-insight-v1`). It states the rule engine's reading in the brief the segment wrote from
 * the data, so every sentence cites numbers that are in `data`.
 */
import type { InsightWriter } from "./types.js";

export const EMBEDDED_MODEL = "embedded-insight-v1";

export const embeddedInsightWriter: InsightWriter = {
  model: EMBEDDED_MODEL,
  async write({ brief, baseline }) {
    return { insight: brief, signal: baseline.signal, confidence: baseline.confidence };
  },
};
