// The chat-completions writer against a local fake model server that answers well, slowly, with
// errors and with invalid JSON.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../test/support/processes.js";
import { chatCompletionsWriter } from "./chat-completions.js";
import { InsightFailure, type InsightRequest } from "./types.js";

type Behaviour = (body: Record<string, unknown>) => {
  status?: number;
  delayMs?: number;
  content?: string | null;
  finish?: string;
  refusal?: string;
};

let behaviour: Behaviour = () => ({});
const received: Record<string, unknown>[] = [];
let headersSeen: IncomingMessage["headers"] = {};
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      const body = JSON.parse(raw);
      received.push(body);
      headersSeen = req.headers;
      const { status = 200, delayMs = 0, content, finish = "stop", refusal = null } = behaviour(body);
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(status, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: "x",
            object: "chat.completion",
            choices: [{ index: 0, finish_reason: finish, message: { role: "assistant", content, refusal } }],
          }),
        );
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const request: InsightRequest = {
  operation: "lpPoolDetail",
  summary: "LP pool detail",
  signals: ["add_liquidity", "hold", "remove"],
  data: { pool: { name: "SOL-USDC", apr_7d_pct: 68.5 } },
  baseline: { signal: "hold", confidence: 0.6 },
  brief: "SOL-USDC earns 68.5%.",
};

/** Bounds far above the fake server's answer time, so that only the timeout case below can time out on a loaded machine. */
const writer = (attempts = 2, timeoutMs = 2000) =>
  chatCompletionsWriter({ baseUrl, model: "test-model", apiKey: "k-123", timeoutMs, attempts });
const answer = (value: unknown) => JSON.stringify(value);

describe("chatCompletionsWriter", () => {
  it("asks for structured JSON with the operation's vocabulary as an enum and returns the validated answer", async () => {
    behaviour = () => ({
      content: answer({ insight: "SOL-USDC pays 68.5% on steady volume.", signal: "add_liquidity", confidence: 0.712 }),
    });
    const result = await writer().write(request);
    expect(result).toEqual({
      insight: "SOL-USDC pays 68.5% on steady volume.",
      signal: "add_liquidity",
      confidence: 0.71,
    });
    const sent = received.at(-1) as {
      model: string;
      response_format: { json_schema: { schema: { properties: { signal: { enum: string[] } } } } };
    };
    expect(sent.model).toBe("test-model");
    expect(sent.response_format.json_schema.schema.properties.signal.enum).toEqual(["add_liquidity", "hold", "remove"]);
    expect(headersSeen.authorization).toBe("Bearer k-123");
  });

  it("retries after a bad answer and succeeds within the attempt budget", async () => {
    let calls = 0;
    behaviour = () =>
      ++calls === 1 ? { status: 500 } : { content: answer({ insight: "ok.", signal: "hold", confidence: 0.5 }) };
    await expect(writer(2).write(request)).resolves.toMatchObject({ signal: "hold" });
    expect(calls).toBe(2);
  });

  const failures: [string, Behaviour, InsightFailure["kind"]][] = [
    ["HTTP errors", () => ({ status: 503 }), "http_status"],
    [
      "a timeout",
      () => ({ delayMs: 1_000, content: answer({ insight: "late", signal: "hold", confidence: 0.5 }) }),
      "timeout",
    ],
    ["content that is not JSON", () => ({ content: "Sure! The pool looks good." }), "invalid_output"],
    [
      "a signal outside the vocabulary",
      () => ({ content: answer({ insight: "x", signal: "moon", confidence: 0.5 }) }),
      "invalid_output",
    ],
    [
      "a confidence above 1",
      () => ({ content: answer({ insight: "x", signal: "hold", confidence: 7 }) }),
      "invalid_output",
    ],
    ["a missing insight", () => ({ content: answer({ signal: "hold", confidence: 0.5 }) }), "invalid_output"],
    [
      "a truncated answer",
      () => ({ content: '{"insight":"x","signal":"hold","confidence":0.5}', finish: "length" }),
      "invalid_output",
    ],
    ["a refusal", () => ({ content: null, refusal: "I can't help with that." }), "refusal"],
  ];
  for (const [what, fail, cause] of failures) {
    it(`rejects after every attempt fails on ${what}, with the cause ${cause}`, async () => {
      let calls = 0;
      behaviour = (body) => {
        calls++;
        return fail(body);
      };
      const failure = await writer(3, cause === "timeout" ? 200 : undefined)
        .write(request)
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(InsightFailure);
      expect((failure as InsightFailure).message).toMatch(/every model attempt failed \(3\)/);
      expect((failure as InsightFailure).kind).toBe(cause);
      expect(calls).toBe(3);
    });
  }

  it("rejects with the cause unreachable when nothing listens, naming the error code and no key", async () => {
    const baseUrl = `http://127.0.0.1:${await freePort()}/v1`;
    const closed = chatCompletionsWriter({ baseUrl, model: "m", apiKey: "k-123", timeoutMs: 2000, attempts: 1 });
    const failure = (await closed.write(request).catch((error: unknown) => error)) as InsightFailure;
    expect(failure.kind).toBe("unreachable");
    expect(failure.message).toMatch(/could not be reached \(E[A-Z]+\)/);
    expect(failure.message).not.toContain("k-123");
  });
});
