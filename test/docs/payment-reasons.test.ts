// Every refusal reason the service can give is x402's own name (found in the installed x402 packages, which spell
// the protocol's vocabulary) or listed in docs/payments.md as this service's own; and that list names only reasons
// the contract has and x402 lacks, so it cannot go stale either way.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = new URL("../../", import.meta.url).pathname;
const reasons: string[] = JSON.parse(readFileSync(join(ROOT, "generated/openapi/3.1/analytics.json"), "utf8"))
  .components.schemas["X402.PaymentErrorReason"].enum;

/** The text of every JavaScript file of the installed x402 packages (v1's `x402`, v2's `@x402/*`). */
function packageText(): string {
  const roots = [join(ROOT, "node_modules/x402/dist"), join(ROOT, "node_modules/@x402")];
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(m?js|cjs)$/.test(name)) files.push(path);
    }
  };
  for (const root of roots) walk(root);
  return files.map((file) => readFileSync(file, "utf8")).join("\n");
}

/** The reasons docs/payments.md lists as this service's own (the first column of its "Refusal reasons" table). */
function documentedOwn(): string[] {
  const page = readFileSync(join(ROOT, "docs/payments.md"), "utf8");
  const section = page.slice(page.indexOf("### Refusal reasons"), page.indexOf("## Settlement"));
  return [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1] as string);
}

describe("the refusal reasons", () => {
  const x402 = packageText();
  const known = (reason: string) => x402.includes(`"${reason}"`) || x402.includes(`'${reason}'`);

  it("are x402's names, or documented as this service's own", () => {
    const own = documentedOwn();
    expect(reasons.filter((reason) => !known(reason) && !own.includes(reason))).toEqual([]);
  });

  it("list as this service's own only reasons the contract has and x402 lacks", () => {
    const own = documentedOwn();
    expect(own.length).toBeGreaterThan(0);
    for (const reason of own) {
      expect(reasons, reason).toContain(reason);
      expect(known(reason), `${reason} is x402's own name`).toBe(false);
    }
  });
});
