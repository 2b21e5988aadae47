import { describe, expect, it } from "vitest";
import type { Quote } from "./mcp-bridge.js";
import { consentRounds } from "./mcp-consent.js";

const quote = (args: Record<string, unknown>, amount = "1000"): Quote =>
  ({
    name: "defiTvl",
    args,
    required: {},
    requirement: { network: "eip155:84532", asset: "0xusdc", payTo: "0xpay", amount },
    amount: BigInt(amount),
    question: `Pay for defiTvl with ${JSON.stringify(args)}?`,
  }) as unknown as Quote;

const yes = { confirm_payment: { action: "accept", content: { pay: true } } };
const no = { confirm_payment: { action: "decline" } };

describe("consent rounds (--confirm on MCP 2026-07-28)", () => {
  it("asks with an elicitation form and a sealed state, and takes the answer once", () => {
    const rounds = consentRounds();
    const asked = rounds.ask(quote({ limit: 2 }));
    expect(asked.inputRequests.confirm_payment).toMatchObject({
      method: "elicitation/create",
      params: { mode: "form", message: 'Pay for defiTvl with {"limit":2}?' },
    });
    const retry = { inputResponses: yes, requestState: asked.requestState };
    expect(rounds.answer(quote({ limit: 2 }), retry)).toBe(true);
    expect(rounds.answer(quote({ limit: 2 }), retry)).toBeUndefined();
    const declined = rounds.ask(quote({ limit: 2 }));
    expect(rounds.answer(quote({ limit: 2 }), { inputResponses: no, requestState: declined.requestState })).toBe(false);
  });

  it("asks again for an answer without its state, with another process's, a forged, a stale one or other terms", () => {
    let now = 0;
    const rounds = consentRounds(undefined, () => now);
    const { requestState } = rounds.ask(quote({ limit: 2 }));
    const [payload] = requestState.split(".");
    expect(rounds.answer(quote({ limit: 2 }), { inputResponses: yes })).toBeUndefined();
    expect(rounds.answer(quote({ limit: 2 }), { requestState })).toBeUndefined();
    expect(consentRounds().answer(quote({ limit: 2 }), { inputResponses: yes, requestState })).toBeUndefined();
    expect(
      rounds.answer(quote({ limit: 2 }), { inputResponses: yes, requestState: `${payload}.AAAA` }),
    ).toBeUndefined();
    expect(rounds.answer(quote({ limit: 3 }), { inputResponses: yes, requestState })).toBeUndefined();
    expect(rounds.answer(quote({ limit: 2 }, "2000"), { inputResponses: yes, requestState })).toBeUndefined();
    now = 11 * 60_000;
    expect(rounds.answer(quote({ limit: 2 }), { inputResponses: yes, requestState })).toBeUndefined();
  });
});
