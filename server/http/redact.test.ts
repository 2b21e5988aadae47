import { describe, expect, it } from "vitest";
import { capturedLogger } from "../../test/support/logs.js";
import { redactSecrets } from "./redact.js";

const SECRETS = ["sk-live-abc123def456", "tok_9f8e7d6c", "hunter2pass", "q1w2e3r4t5"];

describe("redactSecrets", () => {
  const cases: [string, string][] = [
    ["Authorization: Bearer sk-live-abc123def456", "Authorization: Bearer [redacted]"],
    ['{"error":"bad key","apiKey":"sk-live-abc123def456"}', '{"error":"bad key","apiKey":"[redacted]"}'],
    [
      "https://rpc.example/v1?api-key=tok_9f8e7d6c&cluster=main",
      "https://rpc.example/v1?api-key=[redacted]&cluster=main",
    ],
    ["postgres://app:hunter2pass@db.internal:5432/ledger", "postgres://[redacted]@db.internal:5432/ledger"],
    ["X-Api-Key=q1w2e3r4t5 rejected", "X-Api-Key=[redacted] rejected"],
    ["basic dXNlcjpwYXNz", "basic [redacted]"],
  ];
  for (const [input, expected] of cases)
    it(`scrubs ${JSON.stringify(input)}`, () => expect(redactSecrets(input)).toBe(expected));

  it("leaves ordinary text alone", () => {
    const text = "the facilitator answered 500 for https://x402.org/facilitator/settle (base-sepolia, 0xabc)";
    expect(redactSecrets(text)).toBe(text);
  });
});

describe("the service logger", () => {
  it("writes no credential from an error's message, its stack, or a secret-named field", async () => {
    const { logger, text } = capturedLogger();
    const upstream = new Error(
      `facilitator answered 401: {"detail":"invalid token","echo":"Authorization: Bearer ${SECRETS[0]}"}`,
    );
    logger.error({ err: upstream, url: `https://rpc.example?api-key=${SECRETS[1]}` }, "settlement failed");
    logger.info({ request: { headers: { authorization: `Bearer ${SECRETS[0]}` } }, password: SECRETS[2] }, "request");
    logger.warn(
      { err: new Error(`could not reach postgres://app:${SECRETS[2]}@db/ledger (X-Api-Key=${SECRETS[3]})`) },
      "store down",
    );
    const output = text();
    expect(output).toContain("settlement failed");
    for (const secret of SECRETS.filter((s) => s !== SECRETS[1])) expect(output).not.toContain(secret);
  });
});
