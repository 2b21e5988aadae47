// What reaches a log line: secret-named fields censored wherever the services put them, the rest as
// given (and the caller's objects untouched), errors serialized with their message scrubbed.
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { CENSORED, createLogger } from "./logger.js";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: createLogger("info", sink), lines };
}

describe("createLogger", () => {
  it("censors secret-named fields at the top level and two levels down, and leaves the caller's objects as they were", () => {
    const { logger, lines } = capture();
    const fields = {
      token: "t0k3n",
      config: { apiKey: "sk-live-1", url: "https://api.example" },
      request: { headers: { authorization: "Bearer abc", "x-api-key": "k3y", accept: "application/json" } },
      status: 200,
    };
    logger.info(fields, "request");
    expect(lines[0]).toMatchObject({
      token: CENSORED,
      config: { apiKey: CENSORED, url: "https://api.example" },
      request: { headers: { authorization: CENSORED, "x-api-key": CENSORED, accept: "application/json" } },
      status: 200,
      msg: "request",
    });
    expect(fields.config.apiKey).toBe("sk-live-1");
    expect(fields.request.headers.authorization).toBe("Bearer abc");
  });

  it("writes a line without secrets as given, and an error with its message scrubbed", () => {
    const { logger, lines } = capture();
    logger.info({ requestId: "r1", path: "/base/defi/tvl", ms: 1.5, tags: ["a"] }, "request");
    logger.error({ err: new Error("upstream said: Authorization: Bearer sk-live-abcdef123") }, "failed");
    expect(lines[0]).toMatchObject({ requestId: "r1", path: "/base/defi/tvl", ms: 1.5, tags: ["a"] });
    expect(lines[1]?.err).toMatchObject({ type: "Error", message: "upstream said: Authorization: Bearer [redacted]" });
    expect(JSON.stringify(lines)).not.toContain("sk-live");
  });
});
