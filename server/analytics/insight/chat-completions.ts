/**
 * Production insight writer: any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM,
 * llama.cpp). It asks for structured JSON `{insight, signal, confidence}` with the operation's
 * vocabulary as an enum, validates the answer, and retries a bounded number of times, each
 * attempt under its own timeout. When every attempt fails it rejects with the last attempt's cause
 * (`InsightFailure`), and the answer becomes a 206.
 */
import { z } from "zod";
import type { InsightConfig } from "../../config/analytics.js";
import { type Insight, InsightFailure, type InsightRequest, type InsightWriter } from "./types.js";

/** Keeps prompts bounded: long lists are cut to their first items (the data sent stays representative). */
const MAX_DATA_CHARS = 12_000;

const SYSTEM_PROMPT =
  "You are a DeFi analyst. From the JSON data of one API answer, write one or two short sentences for a trader " +
  "that cite concrete numbers from the data, and choose the decision signal from the allowed words. A rule engine's " +
  "reading is given; keep it unless the data clearly says otherwise. Answer only with the requested JSON.";

function trimData(data: unknown): string {
  const text = JSON.stringify(data);
  if (text.length <= MAX_DATA_CHARS) return text;
  const cut = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.slice(0, 5).map(cut)
      : value && typeof value === "object"
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cut(v)]))
        : value;
  return JSON.stringify(cut(data)).slice(0, MAX_DATA_CHARS);
}

/** JSON text as a value; undefined when it is not JSON. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function answerSchema(signals: readonly string[]) {
  return z.object({
    insight: z.string().trim().min(1).max(600),
    signal: z.enum(signals as [string, ...string[]]),
    confidence: z.number().min(0).max(1),
  });
}

/** The chat-completions request body: the prompt, the data, and the answer's JSON schema with the allowed signals. */
function chatRequest(model: string, request: InsightRequest) {
  return {
    model,
    temperature: 0.2,
    messages: [
      { role: "system", content: SYSTEM_PROMPT },
      {
        role: "user",
        content: JSON.stringify({
          endpoint: request.summary,
          allowed_signals: request.signals,
          rule_engine: request.baseline,
          data: JSON.parse(trimData(request.data)),
        }),
      },
    ],
    response_format: {
      type: "json_schema",
      json_schema: {
        name: "insight",
        strict: true,
        schema: {
          type: "object",
          additionalProperties: false,
          required: ["insight", "signal", "confidence"],
          properties: {
            insight: { type: "string" },
            signal: { type: "string", enum: request.signals },
            confidence: { type: "number", minimum: 0, maximum: 1 },
          },
        },
      },
    },
  };
}

/** A request or body read that failed: no answer in time, or no model to answer. */
function transportFailure(error: unknown, signal: AbortSignal, timeoutMs: number): InsightFailure {
  if (signal.aborted) return new InsightFailure("timeout", `model did not answer within ${timeoutMs} ms`);
  const code = (error as { cause?: { code?: unknown } })?.cause?.code;
  return new InsightFailure("unreachable", `model could not be reached${typeof code === "string" ? ` (${code})` : ""}`);
}

/** The insight in a successful answer's body; an `InsightFailure` when the model refused or answered out of schema. */
function insightOf(text: string, signals: readonly string[]): Insight {
  const body = parsed(text) as
    | { choices?: { finish_reason?: string; message?: { content?: string | null; refusal?: string | null } }[] }
    | undefined;
  const choice = body?.choices?.[0];
  if (choice?.message?.refusal) throw new InsightFailure("refusal", "model refused to answer");
  if (!choice?.message?.content) throw new InsightFailure("invalid_output", "model gave no content");
  if (choice.finish_reason === "length") throw new InsightFailure("invalid_output", "model answer was truncated");
  const answer = answerSchema(signals).safeParse(parsed(choice.message.content));
  if (!answer.success)
    throw new InsightFailure("invalid_output", `model answer invalid: ${answer.error.issues[0]?.message}`);
  return { ...answer.data, confidence: Math.round(answer.data.confidence * 100) / 100 };
}

export function chatCompletionsWriter(
  config: InsightConfig & { baseUrl: string },
  fetchImpl: typeof fetch = fetch,
): InsightWriter {
  const url = `${config.baseUrl}/chat/completions`;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;

  async function attempt(request: InsightRequest, outer?: AbortSignal): Promise<Insight> {
    const signal = outer
      ? AbortSignal.any([outer, AbortSignal.timeout(config.timeoutMs)])
      : AbortSignal.timeout(config.timeoutMs);
    let response: Response;
    let text: string;
    try {
      const body = JSON.stringify(chatRequest(config.model, request));
      response = await fetchImpl(url, { method: "POST", headers, signal, body });
      text = await response.text();
    } catch (error) {
      throw transportFailure(error, signal, config.timeoutMs);
    }
    if (!response.ok) throw new InsightFailure("http_status", `model answered HTTP ${response.status}`);
    return insightOf(text, request.signals);
  }

  return {
    model: config.model,
    async write(request, outer) {
      let last: InsightFailure = new InsightFailure("timeout", "aborted before the first attempt");
      for (let i = 0; i < config.attempts; i++) {
        if (outer?.aborted) break;
        try {
          return await attempt(request, outer);
        } catch (error) {
          last =
            error instanceof InsightFailure
              ? error
              : new InsightFailure("error", String((error as Error)?.message ?? error));
        }
      }
      throw new InsightFailure(last.kind, `every model attempt failed (${config.attempts}): ${last.message}`);
    },
  };
}
