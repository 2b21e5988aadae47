import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { runImport } from "./import.js";
import { openRegistryStore, readSeed } from "./seed.js";
import type { RegistryImport } from "./store.js";

const seed = readSeed() as RegistryImport;
const orbitManifest = seed.agents.find((a) => a.name === "orbit-scout")?.manifest;

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A fresh folder holding `file.json` with `data`, and the path of a database beside it. */
function workspace(data: unknown): { file: string; db: string } {
  const folder = mkdtempSync(join(tmpdir(), "registry-import-"));
  folders.push(folder);
  const file = join(folder, "file.json");
  writeFileSync(file, typeof data === "string" ? data : JSON.stringify(data));
  return { file, db: join(folder, "data", "registry.db") };
}

/** Everything a reader can see in the store at `db`. */
async function snapshot(db: string) {
  const store = await openRegistryStore(db);
  try {
    const agents = await store.listAgents(100);
    return {
      agents,
      skills: await store.skills(),
      passports: await Promise.all(agents.map((a) => store.findPassport(a.name))),
      manifests: await Promise.all(agents.map((a) => store.manifest(a.name))),
    };
  } finally {
    await store.close();
  }
}

const newFamily = {
  id: "ops",
  name: "Operations",
  description: "Keeping agents running.",
  options: [{ id: "incident-paging", name: "Incident paging", description: "Wakes a human when an agent misbehaves." }],
};

const good = {
  agents: [
    {
      name: "night-watch",
      assetAddress: "Gm8ZBzyKYoy8NaEp6D8WBHmu7i7HGeBGtZYNDmU8KZu5",
      ownerWallet: "GThUX1Atko4tqhN2NaiTazWSeFWMuiUvfFnyJyUghFMJ",
      description: "Watches other agents overnight and pages their owners.",
      createdAt: 1795000000000,
      kind: "byoa",
      displayName: "Night_Watch",
      primarySol: "night-watch.sol",
      manifest: {
        ...orbitManifest,
        name: "night-watch",
        capabilities: ["ops:incident-paging", "alerts:wallet-alerts"],
      },
      card: { agent: "night-watch", verified: false },
    },
  ],
  skills: [newFamily],
};

/** The good file plus a record that breaks one rule. */
function withBad(overrides: Record<string, unknown>) {
  const bad = {
    ...good.agents[0],
    name: "second-agent",
    displayName: "Second-Agent",
    primarySol: null,
    assetAddress: "3hTaahcfye15KLkPgFUQQo8wnFiViYez69CHJTM86nGB",
  };
  return {
    ...good,
    agents: [...good.agents, { ...bad, manifest: { ...bad.manifest, name: "second-agent" }, ...overrides }],
  };
}

describe("runImport", () => {
  it("writes a good file on top of the seed", async () => {
    const { file, db } = workspace(good);
    expect(await runImport([file, "--db", db])).toEqual({
      code: 0,
      out: `imported 1 passport and 1 skill family from ${file} into ${db}`,
    });
    const after = await snapshot(db);
    expect(after.agents).toHaveLength(seed.agents.length + 1);
    expect(after.agents[0]).toMatchObject({ name: "night-watch", kind: "byoa", displayName: "Night_Watch" });
    expect(after.skills.map((f) => f.id)).toContain("ops");
  });

  it.each([
    [
      "a schema violation",
      { ownerWallet: "0x52908400098527886E0F7030069857D2E4169EE7" },
      "agents[1].ownerWallet: must match pattern",
    ],
    [
      "an unresolved capability",
      { manifest: { ...orbitManifest, name: "second-agent", capabilities: ["ops:teleport"] } },
      'agents[1].manifest.capabilities[0]: "ops:teleport" does not resolve',
    ],
    ["a reserved name", { name: "support", displayName: "Support" }, 'agents[1].name: "support" is a reserved name'],
    [
      "a bring-your-own-agent slug colliding with a native name after normalization",
      { name: "orbit-scout", displayName: "ORBIT_SCOUT", manifest: { ...orbitManifest } },
      'agents[1].name: "orbit-scout" is already held by the native passport "orbit-scout"',
    ],
  ])("refuses a file with %s as a whole, writing nothing", async (_case, overrides, message) => {
    const { file, db } = workspace(withBad(overrides));
    const before = await snapshot(db);
    const result = await runImport([file, "--db", db]);
    expect(result.code).toBe(1);
    expect(result.err).toContain(`${file} was refused, nothing was written`);
    expect(result.err).toContain(message);
    expect(await snapshot(db)).toEqual(before);
    expect(before.agents.map((a) => a.name)).not.toContain("night-watch");
  });

  it("refuses a file that is not JSON, and explains its usage", async () => {
    const { file, db } = workspace("{ agents: [");
    const result = await runImport([file, "--db", db]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/was refused, nothing was written: .*JSON/);
    expect(await runImport([])).toMatchObject({ code: 2, err: expect.stringContaining("usage:") });
    expect(await runImport([file, "--dbx", db])).toMatchObject({ code: 2 });
  });

  it("reports every problem of a file at once, each with its place", async () => {
    const bad = withBad({
      ownerWallet: 7,
      name: "orbit-scout",
      displayName: "Other",
      manifest: { ...orbitManifest, capabilities: ["ops:teleport"] },
    });
    const { file, db } = workspace({ ...bad, agents: [...bad.agents, { ...good.agents[0] }] });
    const result = await runImport([file, "--db", db]);
    expect(result.code).toBe(1);
    for (const line of [
      "agents[1].ownerWallet: must be string",
      'agents[1].displayName: must normalize to the name "orbit-scout"',
      'agents[1].manifest.capabilities[0]: "ops:teleport" does not resolve in the skill catalog',
      'agents[1].name: "orbit-scout" is already held by the native passport "orbit-scout" (--upsert updates it)',
      'agents[2].name: "night-watch" is also given by agents[0].name',
      'agents[2].assetAddress: "Gm8ZBzyKYoy8NaEp6D8WBHmu7i7HGeBGtZYNDmU8KZu5" is also given by agents[0].assetAddress',
    ])
      expect(result.err).toContain(line);
  });

  it("updates existing passports with --upsert: only the fields given, all in one transaction", async () => {
    const orbit = (await snapshot(workspace({}).db)).passports.find((p) => p?.name === "orbit-scout");
    const update = {
      agents: [{ name: "orbit-scout", description: "Now also watches graduations." }, good.agents[0]],
      skills: good.skills,
    };
    const { file, db } = workspace(update);
    expect(await runImport([file, "--db", db, "--upsert"])).toEqual({
      code: 0,
      out: `imported 2 passports (1 updated) and 1 skill family from ${file} into ${db}`,
    });
    const after = await snapshot(db);
    expect(after.passports.find((p) => p?.name === "orbit-scout")).toEqual({
      ...orbit,
      description: "Now also watches graduations.",
    });
    expect(after.manifests.find((m) => m?.name === "orbit-scout")).toEqual(orbitManifest);
    expect(after.agents.map((a) => a.name)).toContain("night-watch");

    // one bad record refuses the whole file: the good update is not written either
    const again = workspace({
      agents: [
        { name: "orbit-scout", description: "Changed." },
        { name: "rug-radar", assetAddress: orbit?.assetAddress },
      ],
    });
    const refused = await runImport([again.file, "--db", db, "--upsert"]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(
      `agents[1].assetAddress: "${orbit?.assetAddress}" is already held by the native passport "orbit-scout"`,
    );
    expect(await snapshot(db)).toEqual(after);
  });

  it("prints its usage on --help", async () => {
    expect(await runImport(["--help"])).toMatchObject({ code: 0, out: expect.stringContaining("--upsert") });
  });

  it("reads the database path from REGISTRY_DB when --db is absent", async () => {
    const { file, db } = workspace(good);
    expect((await runImport([file], { REGISTRY_DB: db })).code).toBe(0);
    expect((await snapshot(db)).agents[0]?.name).toBe("night-watch");
  });
});

describe("the import command", async () => {
  const script = fileURLToPath(new URL("./import.ts", import.meta.url));
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", script, ...args], { encoding: "utf8" });

  it("exits 0 on a good file and 1 on a bad one, naming the record and field", { timeout: 60_000 }, async () => {
    const ok = workspace(good);
    const imported = run(ok.file, "--db", ok.db);
    expect(imported.stderr).toBe("");
    expect(imported.status).toBe(0);
    expect(imported.stdout).toContain("imported 1 passport");

    const bad = workspace(withBad({ createdAt: "yesterday" }));
    const refused = run(bad.file, "--db", bad.db);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("agents[1].createdAt: must be integer");
    expect(refused.stdout).toBe("");
    expect((await snapshot(bad.db)).agents).toHaveLength(seed.agents.length);
  });
});
