import { describe, expect, it } from "vitest";
import { checkImport, type Problem } from "./records.js";
import { readSeed } from "./seed.js";
import type { PassportRecord, RegistryImport, SkillFamily } from "./store.js";

const seed = readSeed() as RegistryImport;
const catalog = seed.skills as SkillFamily[];

/** A valid record to break one field at a time. */
function record(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: "new-agent",
    assetAddress: "Gm8ZBzyKYoy8NaEp6D8WBHmu7i7HGeBGtZYNDmU8KZu5",
    ownerWallet: "GThUX1Atko4tqhN2NaiTazWSeFWMuiUvfFnyJyUghFMJ",
    description: "An agent minted after the seed.",
    createdAt: 1795000000000,
    ...overrides,
  };
}

/** A valid asset address other than `record()`'s (the seed's, which no check here compares with a store). */
const asset = (index: number) => seed.agents[index]?.assetAddress as string;

function problemsOf(data: unknown, known: SkillFamily[] = catalog): Problem[] {
  const check = checkImport(data, known);
  return check.ok ? [] : check.problems;
}

describe("the seed", () => {
  it("passes the import checks on its own", () => {
    expect(problemsOf(seed, [])).toEqual([]);
  });

  it("mixes native and bring-your-own-agent passports, with and without a locked-in .sol alias", () => {
    const agents = seed.agents;
    expect(agents.length).toBeGreaterThanOrEqual(10);
    expect(agents.filter((a) => a.kind === "byoa").length).toBeGreaterThanOrEqual(3);
    expect(agents.filter((a) => a.kind === undefined).length).toBeGreaterThanOrEqual(3);
    expect(agents.filter((a) => a.primarySol).length).toBeGreaterThanOrEqual(3);
    expect(agents.filter((a) => !a.primarySol).length).toBeGreaterThanOrEqual(3);
    expect(agents.filter((a) => a.kind === "byoa").every((a) => a.displayName && a.displayName !== a.name)).toBe(true);
    expect(new Set(agents.map((a) => a.ownerWallet)).size).toBeLessThan(agents.length);
    expect(catalog.length).toBeGreaterThanOrEqual(4);
  });

  it("names only capabilities its catalog resolves", () => {
    const known = new Set(catalog.flatMap((family) => family.options.map((option) => `${family.id}:${option.id}`)));
    const capabilities = seed.agents.flatMap((a: PassportRecord) => a.manifest?.capabilities ?? []);
    expect(capabilities.length).toBeGreaterThan(20);
    for (const id of capabilities) expect(known.has(id), id).toBe(true);
  });
});

describe("checkImport", () => {
  it("accepts a valid file and returns it as the batch", () => {
    const file = { agents: [record({ kind: "byoa", displayName: "New.Agent", primarySol: "new-agent.sol" })] };
    expect(checkImport(file, catalog)).toEqual({ ok: true, batch: file });
  });

  it("names the record and field of every schema violation", () => {
    const file = {
      agents: [
        record(),
        record({ ownerWallet: "0xNotBase58", createdAt: "yesterday", nickname: "x" }),
        record({ primarySol: "New-Agent.SOL" }),
      ],
    };
    const at = problemsOf(file).map((p) => p.at);
    expect(at).toContain("agents[1].ownerWallet");
    expect(at).toContain("agents[1].createdAt");
    expect(at).toContain("agents[2].primarySol");
    expect(at.some((path) => path.startsWith("agents[0]"))).toBe(false);
    expect(problemsOf(file)).toContainEqual({
      at: "agents[1].nickname",
      message: "is not a field of the import format",
    });
    expect(problemsOf(file)).toContainEqual({ at: "agents[1].createdAt", message: "must be integer" });
  });

  it("refuses a file that is not an import at all", () => {
    expect(problemsOf([])[0]?.at).toBe("file");
    expect(problemsOf({ passports: [] })).toEqual([
      { at: "file", message: "must have required property 'agents'" },
      { at: "passports", message: "is not a field of the import format" },
    ]);
  });

  it("refuses a name that breaks the rule, is reserved, or is not normalized", () => {
    const file = {
      agents: [
        record({ name: "ab" }),
        record({ name: "support", assetAddress: asset(1) }),
        record({ name: "New_Agent", assetAddress: asset(2) }),
      ],
    };
    expect(problemsOf(file)).toEqual([
      { at: "agents[0].name", message: "must be 3 to 32 characters" },
      { at: "agents[1].name", message: '"support" is a reserved name' },
      {
        at: "agents[2].name",
        message: 'must be normalized: use "new-agent" (keep the original casing in displayName)',
      },
    ]);
  });

  it("refuses casing that spells another name, and a bring-your-own-agent passport without one", () => {
    const manifest = { ...(seed.agents[0]?.manifest as object), name: "other-agent", capabilities: [] };
    const file = {
      agents: [
        record({ displayName: "Old-Agent" }),
        record({ name: "byoa-agent", assetAddress: asset(1), kind: "byoa" }),
        record({ name: "third-agent", assetAddress: asset(2), manifest }),
      ],
    };
    expect(problemsOf(file)).toEqual([
      { at: "agents[0].displayName", message: 'must normalize to the name "new-agent"' },
      { at: "agents[1].displayName", message: "is required on a byoa passport (its original casing)" },
      { at: "agents[2].manifest.name", message: 'must normalize to the name "third-agent"' },
    ]);
  });

  it("resolves capabilities against the store's catalog plus the file's own families", () => {
    const manifest = {
      ...(seed.agents[0]?.manifest as object),
      name: "new-agent",
      capabilities: ["trading:sniping", "ops:paging"],
    };
    const file = { agents: [record({ manifest })] };
    expect(problemsOf(file)).toEqual([
      { at: "agents[0].manifest.capabilities[1]", message: '"ops:paging" does not resolve in the skill catalog' },
    ]);
    const ops = {
      id: "ops",
      name: "Operations",
      description: "Keeping agents up.",
      options: [{ id: "paging", name: "Paging", description: "Wakes a human." }],
    };
    expect(problemsOf({ ...file, skills: [ops] })).toEqual([]);
    expect(problemsOf({ ...file, skills: [ops] }, [])).toEqual([
      { at: "agents[0].manifest.capabilities[0]", message: '"trading:sniping" does not resolve in the skill catalog' },
    ]);
  });

  it("reports every problem of a file in one pass: schema, name rule, capabilities and duplicates together", () => {
    const manifest = { ...(seed.agents[0]?.manifest as object), name: "new-agent", capabilities: ["ops:paging"] };
    const file = {
      agents: [
        record({ manifest, ownerWallet: 42 }),
        record({ name: "New_Agent", description: undefined }),
        "not a record",
        record({ name: "ab", assetAddress: asset(1), primarySol: "twice.sol" }),
        record({ name: "fourth-agent", assetAddress: asset(2), primarySol: "twice.sol" }),
      ],
    };
    expect(problemsOf(file)).toEqual([
      { at: "agents[0].manifest.capabilities[0]", message: '"ops:paging" does not resolve in the skill catalog' },
      { at: "agents[0].ownerWallet", message: "must be string" },
      { at: "agents[1]", message: "must have required property 'description'" },
      { at: "agents[1].assetAddress", message: `"${record().assetAddress}" is also given by agents[0].assetAddress` },
      {
        at: "agents[1].name",
        message: 'must be normalized: use "new-agent" (keep the original casing in displayName)',
      },
      { at: "agents[1].name", message: '"New_Agent" is also given by agents[0].name' },
      { at: "agents[2]", message: "must be object" },
      { at: "agents[3].name", message: "must be 3 to 32 characters" },
      { at: "agents[4].primarySol", message: '"twice.sol" is also given by agents[3].primarySol' },
    ]);
  });

  it("names the passport that already holds a value, and lets an update keep its own", () => {
    const holders = {
      holderOf: (field: string, value: string) =>
        value === record()[field] ? { name: "new-agent", kind: "native" } : undefined,
    };
    const file = { agents: [record(), record({ name: "other-agent", assetAddress: record().assetAddress })] };
    const check = checkImport(file, catalog, { holders });
    expect(check.ok ? [] : check.problems).toEqual([
      {
        at: "agents[0].assetAddress",
        message: `"${record().assetAddress}" is already held by the native passport "new-agent"`,
      },
      {
        at: "agents[0].name",
        message: '"new-agent" is already held by the native passport "new-agent" (--upsert updates it)',
      },
      { at: "agents[1].assetAddress", message: `"${record().assetAddress}" is also given by agents[0].assetAddress` },
      {
        at: "agents[1].assetAddress",
        message: `"${record().assetAddress}" is already held by the native passport "new-agent"`,
      },
    ]);
    const update = checkImport({ agents: [record()] }, catalog, { holders, upsert: true });
    expect(update.ok).toBe(true);
  });
});
