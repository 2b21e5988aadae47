/**
 * A JSON answer written on Node's response: what every route of both services sends, through
 * Express or through the paid lane (analytics/paid-lane.ts), with the same headers either way.
 */
import type { ServerResponse } from "node:http";

export function sendJson(res: ServerResponse, status: number, body: string, headers: Readonly<Record<string, string>> = {}): void {
  res.statusCode = status;
  for (const name in headers) res.setHeader(name, headers[name] as string);
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.end(body);
}
