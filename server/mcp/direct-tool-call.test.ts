import { describe, expect, it } from "vitest";
import { directToolCall } from "./direct-tool-call.js";

const TOOLS = new Set(["defiTvl"]);
const REVISIONS = ["2025-11-25", "2025-06-18"];
const HEADERS = { accept: "application/json, text/event-stream", "content-type": "application/json" };
const call = (params: unknown, extra: object = {}) => ({
  jsonrpc: "2.0",
  id: 7,
  method: "tools/call",
  params,
  ...extra,
});

describe("a tool call answered without the SDK's transport", () => {
  it("is a single, well-formed tools/call of a known tool, in a POST the transport would accept", () => {
    const params = { name: "defiTvl", arguments: { limit: 2 }, _meta: { "x402/payment": {} } };
    expect(directToolCall(HEADERS, call(params), TOOLS, REVISIONS)).toEqual({
      id: 7,
      name: "defiTvl",
      arguments: { limit: 2 },
      meta: { "x402/payment": {} },
    });
    expect(
      directToolCall({ ...HEADERS, "mcp-protocol-version": "2025-06-18" }, call({ name: "defiTvl" }), TOOLS, REVISIONS),
    ).toEqual({
      id: 7,
      name: "defiTvl",
    });
  });

  it("leaves everything else to the SDK, which words its errors", () => {
    const ok = { name: "defiTvl" };
    const cases: [Record<string, string>, unknown][] = [
      [HEADERS, [call(ok)]],
      [HEADERS, call(ok, { method: "tools/list" })],
      [HEADERS, call(ok, { jsonrpc: "1.0" })],
      [HEADERS, call(ok, { id: 1.5 })],
      [HEADERS, call(ok, { id: null })],
      [HEADERS, call({ name: "unknownTool" })],
      [HEADERS, call({ name: "defiTvl", arguments: [1] })],
      [HEADERS, call({ name: "defiTvl", _meta: "x" })],
      [HEADERS, call("defiTvl")],
      [{ ...HEADERS, accept: "application/json" }, call(ok)],
      [{ ...HEADERS, "content-type": "text/plain" }, call(ok)],
      [{ ...HEADERS, "mcp-protocol-version": "2031-01-01" }, call(ok)],
    ];
    for (const [headers, body] of cases)
      expect(directToolCall(headers, body, TOOLS, REVISIONS), JSON.stringify([headers, body])).toBeUndefined();
  });
});
