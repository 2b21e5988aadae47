import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  describeUpstreamFailures,
  expectUpstreamError,
  reply,
  startServer,
} from "../../../../test/support/upstreams.js";
import { manualClock } from "../../clock.js";
import {
  createUpstreamHttp,
  type HttpPolicy,
  numeric,
  rawAmount,
  retryAfterMs,
  type UpstreamObserver,
} from "./http.js";

const ok = z.object({ ok: z.literal(true) });

/** A fetch that answers from a list of statuses (the last one repeats) and counts calls. */
function scriptedFetch(statuses: number[], headers: Record<string, string> = {}) {
  const calls: string[] = [];
  const fetch = (async (url: URL) => {
    calls.push(url.host);
    const status = statuses[Math.min(calls.length - 1, statuses.length - 1)] as number;
    return new Response(status === 200 ? '{"ok":true}' : "{}", { status, headers });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

function client(fetch: typeof globalThis.fetch, policy: Partial<HttpPolicy> = {}, clock = manualClock(0)) {
  const sleeps: number[] = [];
  const reported: string[] = [];
  const observer: UpstreamObserver = {
    attempt: (source, outcome, seconds) =>
      reported.push(`${source} attempt ${outcome}${seconds >= 0 ? "" : " (negative time)"}`),
    failure: (source, kind) => reported.push(`${source} failure ${kind}`),
    breaker: (source, open) => reported.push(`${source} breaker ${open ? "open" : "closed"}`),
  };
  const http = createUpstreamHttp(
    "acme",
    { retries: 2, backoffMs: 100, maxDelayMs: 1_000, breakerThreshold: 3, breakerCoolDownMs: 10_000, ...policy },
    { fetch, clock, sleep: async (ms) => void sleeps.push(ms), random: () => 1, observer },
  );
  return { http, sleeps, clock, reported };
}

describe("numeric and rawAmount", () => {
  it("read numbers sent as strings", () => {
    expect(numeric.parse("3689212.0760550606")).toBeCloseTo(3689212.076);
    expect(numeric.parse(" 0.04 ")).toBe(0.04);
    expect(numeric.parse(12)).toBe(12);
    expect(numeric.parse("1e-5")).toBe(0.00001);
    expect(numeric.safeParse("12abc").success).toBe(false);
    expect(numeric.safeParse("").success).toBe(false);
    expect(rawAmount.parse("21922914496086353975")).toBe(21922914496086353975n);
    expect(rawAmount.parse(5000)).toBe(5000n);
    expect(rawAmount.safeParse("-1").success).toBe(false);
  });
});

describe("retryAfterMs", () => {
  it("reads delta seconds and HTTP dates", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs("3", now)).toBe(3000);
    expect(retryAfterMs("Thu, 01 Jan 2026 00:00:30 GMT", now)).toBe(30_000);
    expect(retryAfterMs("Wed, 31 Dec 2025 23:00:00 GMT", now)).toBe(0);
    expect(retryAfterMs("soon", now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});

describe("createUpstreamHttp", () => {
  it("backs off exponentially with jitter, capped at maxDelayMs", async () => {
    const { fetch } = scriptedFetch([503]);
    const { http, sleeps } = client(fetch, { retries: 5, breakerThreshold: 99 });
    await expectUpstreamError(http.json({ url: "https://a.example/x" }, ok), "acme", /HTTP 503 \(6 attempts\)/);
    // random() = 1 takes half of each step off.
    expect(sleeps).toEqual([50, 100, 200, 400, 500]);
  });

  it("waits a Retry-After HTTP date on a 503, then succeeds", async () => {
    const clock = manualClock(Date.parse("2026-01-01T00:00:00Z"));
    const { fetch } = scriptedFetch([503, 200], { "retry-after": "Thu, 01 Jan 2026 00:00:01 GMT" });
    const { http, sleeps } = client(fetch, {}, clock);
    await expect(http.json({ url: "https://a.example/x" }, ok)).resolves.toEqual({ ok: true });
    expect(sleeps).toEqual([1000]);
  });

  it("does not retry other 4xx answers, and maps 404 to undefined on request", async () => {
    const { fetch, calls } = scriptedFetch([401]);
    const { http } = client(fetch);
    await expectUpstreamError(http.json({ url: "https://a.example/x" }, ok), "acme", /answered HTTP 401\.$/);
    expect(calls).toHaveLength(1);
    const missing = client(scriptedFetch([404]).fetch).http;
    await expect(missing.jsonOrMissing({ url: "https://a.example/x" }, ok)).resolves.toBeUndefined();
    await expectUpstreamError(missing.json({ url: "https://a.example/x" }, ok), "acme", /HTTP 404/);
  });

  it("opens the breaker after consecutive failures, fails fast, then lets one probe through", async () => {
    const { fetch, calls } = scriptedFetch([500, 500, 500, 200]);
    const { http, clock } = client(fetch, { retries: 0 });
    for (let i = 0; i < 3; i++)
      await expectUpstreamError(http.json({ url: "https://a.example/x" }, ok), "acme", /HTTP 500/);
    await expectUpstreamError(http.json({ url: "https://a.example/x" }, ok), "acme", /pause for 10 s/);
    expect(calls).toHaveLength(3);
    // Another host has its own breaker.
    await expect(http.json({ url: "https://b.example/x" }, ok)).resolves.toEqual({ ok: true });
    clock.advance(10_000);
    await expect(http.json({ url: "https://a.example/x" }, ok)).resolves.toEqual({ ok: true });
    await expect(http.json({ url: "https://a.example/x" }, ok)).resolves.toEqual({ ok: true });
  });

  it("reports every attempt, every failed request by why, and the breaker opening and closing", async () => {
    const { fetch } = scriptedFetch([500, 500, 500, 200]);
    const { http, clock, reported } = client(fetch, { retries: 0 });
    for (let i = 0; i < 3; i++) await expectUpstreamError(http.json({ url: "https://a.example/x" }, ok), "acme");
    await expectUpstreamError(http.json({ url: "https://a.example/x" }, ok), "acme", /pause/);
    clock.advance(10_000);
    await http.json({ url: "https://a.example/x" }, ok);
    expect(reported).toEqual([
      "acme attempt server_error",
      "acme failure retries_exhausted",
      "acme attempt server_error",
      "acme failure retries_exhausted",
      "acme attempt server_error",
      "acme breaker open",
      "acme failure retries_exhausted",
      "acme failure breaker_open",
      "acme attempt ok",
      "acme breaker closed",
    ]);
  });

  it("reports an answer it cannot use by why: an error status, malformed JSON, an unexpected shape", async () => {
    const answers = [new Response("{}", { status: 403 }), new Response("not json"), new Response('{"ok":false}')];
    const fetch = (async () => answers.shift()) as unknown as typeof globalThis.fetch;
    const { http, reported } = client(fetch);
    for (let i = 0; i < 3; i++) await expectUpstreamError(http.json({ url: "https://a.example/x" }, ok), "acme");
    expect(reported).toEqual([
      "acme attempt client_error",
      "acme failure http_status",
      "acme attempt ok",
      "acme failure malformed",
      "acme attempt ok",
      "acme failure unexpected_shape",
    ]);
  });

  it("reopens the breaker when the probe fails, and lets only one probe out at a time", async () => {
    let release: () => void = () => {};
    let calls = 0;
    const fetch = (async () => {
      calls++;
      if (calls > 2) await new Promise<void>((resolve) => (release = resolve));
      return new Response("{}", { status: 500 });
    }) as unknown as typeof globalThis.fetch;
    const { http, clock } = client(fetch, { retries: 0, breakerThreshold: 2 });
    for (let i = 0; i < 2; i++) await expectUpstreamError(http.json({ url: "https://a.example/x" }, ok), "acme");
    clock.advance(10_000);
    const probe = http.json({ url: "https://a.example/x" }, ok);
    await expectUpstreamError(http.json({ url: "https://a.example/x" }, ok), "acme", /pause/);
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await expectUpstreamError(probe, "acme", /HTTP 500/);
    await expectUpstreamError(http.json({ url: "https://a.example/x" }, ok), "acme", /pause for 10 s/);
    expect(calls).toBe(3);
  });

  it("keeps at most `concurrency` requests in flight per host", async () => {
    let inFlight = 0;
    let peak = 0;
    const fetch = (async () => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      return new Response('{"ok":true}');
    }) as unknown as typeof globalThis.fetch;
    const { http } = client(fetch, { concurrency: 2 });
    await Promise.all(Array.from({ length: 7 }, () => http.json({ url: "https://a.example/x" }, ok)));
    expect(peak).toBe(2);
  });

  it("sends JSON bodies and headers", async () => {
    const server = await startServer((_req, res) => reply(res, 200, { ok: true }));
    try {
      const http = createUpstreamHttp("acme");
      await http.json({ url: `${server.url}/q`, method: "POST", headers: { apiKey: "k" }, body: { a: 1 } }, ok);
      expect(server.seen[0]).toMatchObject({ method: "POST", url: "/q", body: { a: 1 } });
      expect(server.seen[0]?.headers).toMatchObject({ apikey: "k", "content-type": "application/json" });
    } finally {
      await server.close();
    }
  });

  it("reports an unreachable host without its address, and redacts secrets", async () => {
    const server = await startServer();
    const url = `${server.url}/secret-key-123/x`;
    await server.close();
    const http = createUpstreamHttp(
      "acme",
      { retries: 1, breakerThreshold: 99 },
      { sleep: async () => {}, redact: (t) => t.replaceAll("acme", "[redacted]") },
    );
    const error = await expectUpstreamError(http.json({ url }, ok), "acme", /could not be reached \(2 attempts\)/);
    expect(error.message).not.toMatch(/127\.0\.0\.1|secret-key/);
    expect(error.message.startsWith("[redacted]")).toBe(true);
  });
});

describeUpstreamFailures("createUpstreamHttp", {
  provider: "acme",
  call: (baseUrl, http) =>
    http.json({ url: `${baseUrl}/thing` }, z.object({ data: z.array(z.object({ id: z.string() })) })),
  valid: (_req, res) => reply(res, 200, { data: [{ id: "a" }] }),
});
