/**
 * Production insight writer: any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM,
 * llama.cpp). It asks for structured JSON `{insight, signal, confidence}` with the operation's
 * vocabulary as an enum, validates the answer, and retries a bounded number of times, each
 * attempt under its own timeout. When every attempt fails it rejects, and the answer becomes a 206.
 */
import { z } from "zod";
import type { InsightConfig } from "../config.js";
import type { Insight, InsightRequest, InsightWriter } from "./types.js";

/** Keeps prompts bounded: long lists are cut to their first items (the data sent stays representative). */
const MAX_DATA_CHARS = 12_000;

const SYSTEM_PROMPT =
  "You are a DeFi analyst. From the JSON data of one API answer, write one or two short sentences for a trader " +
  "that cite concrete numbers from the data, and choose the decision signal from the allowed words. A rule engine's " +
  "reading is given; keep it unless the data clearly says otherwise. Answer only with the requested JSON.";

export class InsightFailure extends Error {}

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

function answerSchema(signals: readonly string[]) {
  return z.object({
    insight: z.string().trim().min(1).max(600),
    signal: z.enum(signals as [string, ...string[]]),
    confidence: z.number().min(0).max(1),
  });
}

export function chatCompletionsWriter(config: InsightConfig & { baseUrl: string }, fetchImpl: typeof fetch = fetch): InsightWriter {
  const url = `${config.baseUrl}/chat/completions`;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;

  async function attempt(request: InsightRequest, outer?: AbortSignal): Promise<Insight> {
    const signal = outer ? AbortSignal.any([outer, AbortSignal.timeout(config.timeoutMs)]) : AbortSignal.timeout(config.timeoutMs);
    const response = await fetchImpl(url, {
      method: "POST",
      headers,
      signal,
      body: JSON.stringify({
        model: config.model,
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
      }),
    });
    if (!response.ok) throw new InsightFailure(`model answered HTTP ${response.status}`);
    const body = (await response.json()) as {
      choices?: { finish_reason?: string; message?: { content?: string | null; refusal?: string | null } }[];
    };
    const choice = body.choices?.[0];
    if (!choice?.message?.content || choice.message.refusal) throw new InsightFailure("model gave no content");
    if (choice.finish_reason === "length") throw new InsightFailure("model answer was truncated");
    const parsed = answerSchema(request.signals).safeParse(JSON.parse(choice.message.content));
    if (!parsed.success) throw new InsightFailure(`model answer invalid: ${parsed.error.issues[0]?.message}`);
    return { ...parsed.data, confidence: Math.round(parsed.data.confidence * 100) / 100 };
  }

  return {
    model: config.model,
    async write(request, outer) {
      let last: unknown;
      for (let i = 0; i < config.attempts; i++) {
        if (outer?.aborted) break;
        try {
          return await attempt(request, outer);
        } catch (error) {
          last = error;
        }
      }
      throw new InsightFailure(`every model attempt failed (${config.attempts}): ${(last as Error)?.message ?? "aborted"}`);
    },
  };
}
