import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "libsql";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteStore, SCHEMA_VERSION } from "./sqlite-store.js";
import { type PassportRecord, type RegistryStore, type SkillFamily, StoreConflict } from "./store.js";

const catalog: SkillFamily[] = [
  {
    id: "trading",
    name: "Trading",
    description: "Finding, judging and executing trades.",
    options: [{ id: "token-screening", name: "Token screening", description: "Filters tokens by risk and momentum." }],
  },
];

function passport(name: string, overrides: Partial<PassportRecord> = {}): PassportRecord {
  return {
    name,
    assetAddress: `Asset${name.replace(/[^a-zA-Z1-9]/g, "")}`.padEnd(40, "x"),
    ownerWallet: "8J4JqXWkYkZq6dhYyYxBzkhJbRyg3QTXyQxK2eqPN3Fv",
    description: `The ${name} agent.`,
    createdAt: 1780000000000,
    ...overrides,
  };
}

/** A manifest for `name` naming `capabilities`. */
function manifestOf(name: string, capabilities: string[]): NonNullable<PassportRecord["manifest"]> {
  return {
    type: "https://eips.ethereum.org/EIPS/eip-8004#registration-v1",
    name,
    description: "d",
    image: `https://registry.example.com/images/${name}.png`,
    services: [],
    capabilities,
    tags: [],
    registrations: [],
    x402Support: false,
    active: true,
  };
}

const opened: RegistryStore[] = [];
const folders: string[] = [];
function memoryStore(): RegistryStore {
  const store = openSqliteStore(":memory:");
  opened.push(store);
  store.write({ agents: [passport("orbit-scout", { displayName: "Orbit-Scout", primarySol: "orbit-scout.sol" })], skills: catalog });
  return store;
}
function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), "registry-store-"));
  folders.push(folder);
  return folder;
}

afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Catches the conflict a write throws. */
function conflictOf(write: () => void): StoreConflict {
  try {
    write();
  } catch (error) {
    if (error instanceof StoreConflict) return error;
    throw error;
  }
  throw new Error("the write was accepted");
}

describe("openSqliteStore", () => {
  it("creates the file and its folders, migrates once, and keeps the data, checkpointed, across reopening", () => {
    const path = join(tempFolder(), "nested", "dir", "registry.db");
    const first = openSqliteStore(path);
    expect(first.isEmpty()).toBe(true);
    first.write({ agents: [passport("orbit-scout")], skills: catalog });
    first.close();
    expect(statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0, "closing folds the WAL into the file").toBe(0);

    const again = openSqliteStore(path);
    expect(again.findPassport("orbit-scout")?.name).toBe("orbit-scout");
    expect(again.skills()).toEqual(catalog);
    again.close();
    const db = new Database(path);
    expect(db.prepare("SELECT version FROM schema_version").all()).toEqual([{ version: SCHEMA_VERSION }]);
    db.close();
  });

  it("refuses a database migrated by newer code", () => {
    const path = join(tempFolder(), "registry.db");
    openSqliteStore(path).close();
    const db = new Database(path);
    db.prepare("INSERT INTO schema_version (version) VALUES (?)").run(SCHEMA_VERSION + 1);
    db.close();
    expect(() => openSqliteStore(path)).toThrow(/schema version 2 is newer than this code supports \(1\)/);
  });
});

describe("one namespace", () => {
  it("refuses a bring-your-own-agent slug that a native passport already holds, writing nothing of the batch", () => {
    const store = memoryStore();
    const byoa = passport("orbit-scout", { kind: "byoa", displayName: "ORBIT_SCOUT", assetAddress: "B".repeat(44) });
    const conflict = conflictOf(() => store.write({ agents: [passport("earlier-in-batch"), byoa] }));
    expect(conflict.at).toBe("agents[1].name");
    expect(conflict.message).toBe('"orbit-scout" is already held by the native passport "orbit-scout"');
    expect(store.findPassport("earlier-in-batch")).toBeUndefined();
    expect(store.findPassport("orbit-scout")).not.toHaveProperty("kind");
    expect(store.listAgents(100)).toHaveLength(1);
  });

  it("refuses the same name twice within one batch", () => {
    const store = memoryStore();
    const conflict = conflictOf(() =>
      store.write({
        agents: [passport("twin-agent"), passport("twin-agent", { kind: "byoa", displayName: "Twin_Agent", assetAddress: "C".repeat(44) })],
      }),
    );
    expect(conflict.at).toBe("agents[1].name");
    expect(store.findPassport("twin-agent")).toBeUndefined();
  });

  it("refuses a second holder of an asset or of a .sol alias", () => {
    const store = memoryStore();
    const held = store.findPassport("orbit-scout");
    const asset = conflictOf(() => store.write({ agents: [passport("other-agent", { assetAddress: held?.assetAddress })] }));
    expect(asset.at).toBe("agents[0].assetAddress");
    const sol = conflictOf(() => store.write({ agents: [passport("other-agent", { primarySol: "orbit-scout.sol" })] }));
    expect(sol.at).toBe("agents[0].primarySol");
  });
});

describe("the catalog", () => {
  it("refuses a manifest capability missing from the catalog, even unchecked", () => {
    const store = memoryStore();
    const manifest = manifestOf("new-agent", ["trading:token-screening", "trading:teleportation"]);
    const conflict = conflictOf(() => store.write({ agents: [passport("new-agent", { manifest })] }));
    expect(conflict.at).toBe("agents[0].manifest.capabilities[1]");
    expect(store.findPassport("new-agent")).toBeUndefined();
  });

  it("merges families by id: replaces their text, adds options, removes nothing, keeps the order", () => {
    const store = memoryStore();
    const option = { id: "sniping", name: "Launch sniping", description: "Buys new launches." };
    const data = { id: "data", name: "Data", description: "Reading chain data.", options: [] };
    store.write({ agents: [], skills: [{ ...catalog[0], name: "Trading desk", options: [option] } as SkillFamily, data] });
    expect(store.skills()).toEqual([
      { ...catalog[0], name: "Trading desk", options: [...(catalog[0] as SkillFamily).options, option] },
      data,
    ]);
  });
});

describe("reads", () => {
  it("lists newest first, ties by name, up to the limit", () => {
    const store = memoryStore();
    store.write({
      agents: [
        passport("bravo-agent", { createdAt: 1790000000000 }),
        passport("alpha-agent", { createdAt: 1790000000000 }),
        passport("oldest-agent", { createdAt: 1700000000000 }),
      ],
    });
    expect(store.listAgents(3).map((a) => a.name)).toEqual(["alpha-agent", "bravo-agent", "orbit-scout"]);
    expect(store.listAgents(100)).toHaveLength(4);
  });

  it("gives a native passport its display casing for aliases but not in the list", () => {
    const store = memoryStore();
    expect(store.findPassport("orbit-scout")).toMatchObject({ displayName: "Orbit-Scout", primarySol: "orbit-scout.sol" });
    expect(store.listAgents(1)[0]).not.toHaveProperty("displayName");
    expect(store.manifest("orbit-scout")).toBeUndefined();
    expect(store.card("orbit-scout")).toBeUndefined();
  });
});

describe("updates", () => {
  it("hands back a passport exactly as written, and who holds each unique value", () => {
    const store = memoryStore();
    expect(store.record("orbit-scout")).toEqual(passport("orbit-scout", { displayName: "Orbit-Scout", primarySol: "orbit-scout.sol" }));
    expect(store.record("nobody-here")).toBeUndefined();
    expect(store.holderOf("primarySol", "orbit-scout.sol")).toEqual({ name: "orbit-scout", kind: "native" });
    expect(store.holderOf("assetAddress", "nothing")).toBeUndefined();
  });

  it("replaces a passport and its capabilities with upsert, and refuses the same write without it", () => {
    const store = memoryStore();
    const updated = passport("orbit-scout", {
      description: "Now with a manifest.",
      manifest: manifestOf("orbit-scout", ["trading:token-screening"]),
    });
    expect(conflictOf(() => store.write({ agents: [updated] })).at).toBe("agents[0].name");
    store.write({ agents: [updated] }, { upsert: true });
    expect(store.record("orbit-scout")).toEqual(updated);
    store.write({ agents: [updated] }, { upsert: true });
    expect(store.manifest("orbit-scout")?.capabilities).toEqual(["trading:token-screening"]);
  });
});
