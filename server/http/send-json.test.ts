import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { ApiError, sendError } from "./errors.js";
import { sendJson } from "./send-json.js";

const response = () => new ServerResponse(new IncomingMessage(new Socket()));
const receipt = { "PAYMENT-RESPONSE": "eyJzdWNjZXNzIjp0cnVlfQ==", "Cache-Control": "no-store" };

describe("sendJson", () => {
  it("writes the status, the headers and the body's type and length", () => {
    const res = response();
    sendJson(res, 206, '{"a":"é"}', receipt);
    expect(res.statusCode).toBe(206);
    expect(res.getHeader("payment-response")).toBe(receipt["PAYMENT-RESPONSE"]);
    expect(res.getHeader("content-type")).toBe("application/json; charset=utf-8");
    expect(res.getHeader("content-length")).toBe(10);
  });

  it("leaves none of a refused reply's headers to the error answer after it", () => {
    for (const [status, headers] of [
      [1000, receipt],
      [200, { ...receipt, "X-Bad": "line\nbreak" }],
    ] as const) {
      const res = response();
      res.setHeader("X-Request-Id", "r1");
      expect(() => sendJson(res, status, "{}", headers)).toThrow();
      expect(res.headersSent).toBe(false);
      sendError(
        res,
        new ApiError(500, "internal_error", "failed"),
        { requestId: "r1", path: "/defi/tvl" },
        pino({ enabled: false }),
      );
      expect(res.statusCode).toBe(500);
      expect(res.getHeader("payment-response")).toBeUndefined();
      expect(res.getHeader("cache-control")).toBeUndefined();
      expect(res.getHeader("x-request-id")).toBe("r1");
    }
  });
});
