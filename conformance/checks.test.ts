// The suite's judgements catch what they must, with messages naming operation, prefix and field: answers
// built from the document's own examples, then broken the way a faulty server would break them.
import { describe, expect, it } from "vitest";
import { DOCS, type PaidCase, paidCases } from "./cases.js";
import { checkChallenge, checkEnvelope, Findings } from "./checks.js";
import type { Answer } from "./http.js";
import { ALL_PREFIXES } from "./targets.js";

const base = paidCases(ALL_PREFIXES).find((c) => c.operationId === "Base_defiTvl") as PaidCase;

type Edit = [path: (string | number)[], value: unknown];

/** The operation's example for `status`, with each edit applied (an `undefined` value deletes the field). */
function exampleAnswer(c: PaidCase, status: number, ...edits: Edit[]): Answer {
  const media = DOCS.analytics.paths[c.template]?.post?.responses[String(status)]?.content?.["application/json"] as { example: unknown };
  const body = structuredClone(media.example) as Record<string | number, unknown>;
  for (const [path, value] of edits) {
    const parent = path
      .slice(0, -1)
      .reduce<Record<string | number, unknown>>((at, key) => at[key] as Record<string | number, unknown>, body);
    const last = path.at(-1) as string | number;
    if (value === undefined) delete parent[last];
    else parent[last] = value;
  }
  return { status, headers: new Headers(), contentType: "application/json", text: JSON.stringify(body), json: body };
}

function failure(check: (f: Findings) => void): string {
  const f = new Findings(`${base.label} check`);
  check(f);
  try {
    f.assert();
  } catch (error) {
    return (error as Error).message;
  }
  return "";
}

describe("checks", () => {
  it("pass the document's own examples", () => {
    expect(failure((f) => checkChallenge(f, base, exampleAnswer(base, 402)))).toBe("");
    expect(failure((f) => checkEnvelope(f, base, exampleAnswer(base, 200), [200]))).toBe("");
  });

  it("name the operation, prefix and field of a wrong price", () => {
    const answer = exampleAnswer(base, 402, [["accepts", 0, "maxAmountRequired"], "2000"]);
    const message = failure((f) => checkChallenge(f, base, answer));
    expect(message).toContain("Base_defiTvl [base]");
    expect(message).toContain('accepts[0].maxAmountRequired: expected "1000" (0.001 USD in micro-USDC), got "2000"');
  });

  it("name a wrong network and a relative resource URL", () => {
    const answer = exampleAnswer(base, 402, [["accepts", 0, "network"], "solana-devnet"], [["accepts", 0, "resource"], "/base/defi/tvl"]);
    const message = failure((f) => checkChallenge(f, base, answer));
    expect(message).toContain('accepts[0].network: expected base or base-sepolia (prefix "/base"), got "solana-devnet"');
    expect(message).toContain("accepts[0].resource: must be an absolute URL");
  });

  it("name each broken field of an envelope and a signal outside the vocabulary", () => {
    const answer = exampleAnswer(
      base,
      200,
      [["data", "total_tvl_usd"], undefined],
      [["data", "chains", 0, "tvl_usd"], "lots"],
      [["signal"], "snipe"],
    );
    const message = failure((f) => checkEnvelope(f, base, answer, [200]));
    expect(message).toContain("Base_defiTvl [base]");
    expect(message).toContain("/data: must have required property 'total_tvl_usd'");
    expect(message).toContain("/data/chains/0/tvl_usd: must be number");
    expect(message).toContain(
      'signal: expected one of high_yield, medium_yield, low_yield, risky (the operation\'s vocabulary), got "snipe"',
    );
  });

  it("require a 206 to carry no model output", () => {
    const answer = exampleAnswer(base, 206, [["insight"], "still written"]);
    expect(failure((f) => checkEnvelope(f, base, answer, [206]))).toContain("insight:");
  });
});
