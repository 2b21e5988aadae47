/**
 * A JSON answer written on Node's response: what every route of both services sends, through
 * Express or through the paid front (analytics/front/paid-front.ts), with the same headers either way.
 */
import type { ServerResponse } from "node:http";

export function sendJson(
  res: ServerResponse,
  status: number,
  body: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  try {
    for (const name in headers) res.setHeader(name, headers[name] as string);
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    res.setHeader("Content-Length", Buffer.byteLength(body));
    res.writeHead(status);
  } catch (error) {
    // A reply Node refuses to write (its status or a header) leaves none of its headers to the error answer that
    // follows: a paid reply's receipt goes out with its 200 or 206 or not at all.
    for (const name in headers) res.removeHeader(name);
    throw error;
  }
  res.end(body);
}
