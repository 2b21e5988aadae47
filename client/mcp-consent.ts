/**
 * `--confirm`: the person is asked before each payment, with a form of one boolean, `pay`. A 2025-era host is
 * asked by elicitation (a request of the bridge's, answered in place); a host of MCP's current revision,
 * 2026-07-28, by an `input_required` result, and it calls the tool again with the answer in `inputResponses`
 * and the bridge's `requestState` echoed. That state names the terms asked about (the tool, a digest of its
 * arguments, the network, asset, recipient and amount), sealed with a key only this process holds, and is
 * good once and for ten minutes: an answer pays only the payment it was asked about, and only once. Anything
 * else (no state, another's, a used or stale one, no answer) is asked again; nothing is paid without a "yes".
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { isObject } from "../lib/mcp-revision.js";
import type { Quote } from "./mcp-bridge.js";

/** The key of the bridge's one question in `inputRequests` and `inputResponses`. */
export const CONSENT_INPUT = "confirm_payment";
const STATE_TTL_MS = 10 * 60_000;

/** The elicitation form asking `message`: one boolean, `pay`. */
export const consentForm = (message: string) => ({
  message,
  requestedSchema: {
    type: "object" as const,
    properties: { pay: { type: "boolean" as const, title: "Pay", description: message } },
    required: ["pay"],
  },
});

/** An elicitation's answer as a decision: true only for an accepted form saying `pay: true`. */
export const approves = (answer: unknown) =>
  isObject(answer) && answer.action === "accept" && isObject(answer.content) && answer.content.pay === true;

/** The current revision's interim result asking the person. */
export interface InputRequiredResult {
  resultType: "input_required";
  inputRequests: Record<string, { method: "elicitation/create"; params: Record<string, unknown> }>;
  requestState: string;
}

export interface ConsentRounds {
  /** The `input_required` result asking the person about `quote`. */
  ask(quote: Quote): InputRequiredResult;
  /**
   * The person's answer about `quote` in a retried call's params: true (pay) or false (declined) when the call
   * carries a valid state for exactly these terms and an answer; undefined when it is to be asked (again).
   */
  answer(quote: Quote, params: Record<string, unknown>): boolean | undefined;
}

const base64url = (value: Buffer | string) => Buffer.from(value).toString("base64url");
const digest = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("base64url");

/** What an answer is about: the tool, its arguments and the payment, as the person was shown them. */
const termsOf = ({ name, args, requirement }: Quote) =>
  digest([name, args ?? {}, requirement.network, requirement.asset, requirement.payTo, requirement.amount]);

export function consentRounds(secret: Buffer = randomBytes(32), now: () => number = Date.now): ConsentRounds {
  /** States answered, by nonce, until they expire. */
  const used = new Map<string, number>();
  const seal = (payload: string) => createHmac("sha256", secret).update(payload).digest();

  /** The state's nonce when it is this process's, unexpired, unused and about these terms. */
  function validNonce(state: unknown, terms: string): string | undefined {
    if (typeof state !== "string") return undefined;
    const [payload = "", mac = ""] = state.split(".");
    const expected = seal(payload);
    const given = Buffer.from(mac, "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    // sealed by this process, so it parses
    const { t, e, n } = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
    if (t !== terms || typeof e !== "number" || e <= now() || typeof n !== "string" || used.has(n)) return undefined;
    return n;
  }

  return {
    ask(quote) {
      const payload = base64url(
        JSON.stringify({ t: termsOf(quote), e: now() + STATE_TTL_MS, n: randomBytes(12).toString("base64url") }),
      );
      return {
        resultType: "input_required",
        inputRequests: {
          [CONSENT_INPUT]: { method: "elicitation/create", params: { mode: "form", ...consentForm(quote.question) } },
        },
        requestState: `${payload}.${base64url(seal(payload))}`,
      };
    },
    answer(quote, params) {
      const responses = params.inputResponses;
      const answer = isObject(responses) ? responses[CONSENT_INPUT] : undefined;
      if (!isObject(answer)) return undefined;
      const nonce = validNonce(params.requestState, termsOf(quote));
      if (nonce === undefined) return undefined;
      for (const [old, expires] of used) if (expires <= now()) used.delete(old);
      used.set(nonce, now() + STATE_TTL_MS);
      return approves(answer);
    },
  };
}
