/**
 * A2A v1.0's names as this service uses them, and x402's A2A transport's (x402 `specs/transports-v2/a2a.md`, which
 * follows the a2a-x402 extension v0.2): the endpoint, the protocol version, the extension's URIs and headers, and the
 * metadata keys a paid task carries. Written once here, read by the endpoint, the agent card, the mock and the suite.
 */

/** Where the service answers A2A's JSON-RPC binding (one endpoint for every network, as `/mcp`). */
export const A2A_PATH = "/a2a";
/**
 * What a skill's payment pays for: the skill at the service's A2A endpoint, whatever origin the task came by (the
 * resource its receipt names, and the one a lookup of its purchase signs it for again).
 */
export const skillResource = (name: string) => `a2a:${A2A_PATH}#${name}`;
/** The A2A protocol version the endpoint speaks, as the card's interface and the `A2A-Version` header name it. */
export const A2A_PROTOCOL_VERSION = "1.0";
/** The card's protocol binding of the endpoint. */
export const A2A_BINDING = "JSONRPC";

/** The x402 extension's URI as the card declares it (a2a-x402 v0.2, the one x402's A2A transport names). */
export const X402_EXTENSION_URI = "https://github.com/google-agentic-commerce/a2a-x402/blob/main/spec/v0.2";
/** The extension's earlier URI (v0.1): accepted as an activation, never declared. */
export const X402_EXTENSION_URI_V01 = "https://google-a2a.github.io/A2A/extensions/payments/x402/v0.1";

/** Request headers activating extensions: A2A v1.0's, and the `X-` one clients of 0.x send. */
export const EXTENSION_HEADERS = ["a2a-extensions", "x-a2a-extensions"] as const;

/** The metadata keys of x402's A2A transport, on a task's status message and on the payer's message. */
export const X402_META = {
  status: "x402.payment.status",
  required: "x402.payment.required",
  payload: "x402.payment.payload",
  receipts: "x402.payment.receipts",
  error: "x402.payment.error",
} as const;

/** `x402.payment.status`'s values. */
export type X402PaymentStatus =
  | "payment-required"
  | "payment-submitted"
  | "payment-rejected"
  | "payment-verified"
  | "payment-completed"
  | "payment-failed";
