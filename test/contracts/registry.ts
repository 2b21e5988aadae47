/**
 * The registry store's contract, run against every implementation: one namespace of names, unique
 * assets and aliases, the skill catalog, reads, and updates. `open` gives an empty store.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  type PassportRecord,
  type RegistryStore,
  type SkillFamily,
  StoreConflict,
} from "../../server/registry/store.js";

export const catalog: SkillFamily[] = [
  {
    id: "trading",
    name: "Trading",
    description: "Finding, judging and executing trades.",
    options: [{ id: "token-screening", name: "Token screening", description: "Filters tokens by risk and momentum." }],
  },
];

export function passport(name: string, overrides: Partial<PassportRecord> = {}): PassportRecord {
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

/** Catches the conflict a write throws. */
async function conflictOf(write: () => Promise<void>): Promise<StoreConflict> {
  try {
    await write();
  } catch (error) {
    if (error instanceof StoreConflict) return error;
    throw error;
  }
  throw new Error("the write was accepted");
}

export function describeRegistryStoreContract(name: string, open: () => Promise<RegistryStore>): void {
  const opened: RegistryStore[] = [];
  /** An empty store holding one passport and the catalog. */
  async function seeded(): Promise<RegistryStore> {
    const store = await open();
    opened.push(store);
    expect(await store.isEmpty()).toBe(true);
    await store.write({
      agents: [passport("orbit-scout", { displayName: "Orbit-Scout", primarySol: "orbit-scout.sol" })],
      skills: catalog,
    });
    expect(await store.isEmpty()).toBe(false);
    return store;
  }
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });

  describe(`${name} registry store`, () => {
    describe("one namespace", () => {
      it("refuses a bring-your-own-agent slug that a native passport already holds, writing nothing of the batch", async () => {
        const store = await seeded();
        const byoa = passport("orbit-scout", {
          kind: "byoa",
          displayName: "ORBIT_SCOUT",
          assetAddress: "B".repeat(44),
        });
        const conflict = await conflictOf(() => store.write({ agents: [passport("earlier-in-batch"), byoa] }));
        expect(conflict.at).toBe("agents[1].name");
        expect(conflict.message).toBe('"orbit-scout" is already held by the native passport "orbit-scout"');
        expect(await store.findPassport("earlier-in-batch")).toBeUndefined();
        expect(await store.findPassport("orbit-scout")).not.toHaveProperty("kind");
        expect(await store.listAgents(100)).toHaveLength(1);
      });

      it("refuses the same name twice within one batch", async () => {
        const store = await seeded();
        const conflict = await conflictOf(() =>
          store.write({
            agents: [
              passport("twin-agent"),
              passport("twin-agent", { kind: "byoa", displayName: "Twin_Agent", assetAddress: "C".repeat(44) }),
            ],
          }),
        );
        expect(conflict.at).toBe("agents[1].name");
        expect(await store.findPassport("twin-agent")).toBeUndefined();
      });

      it("refuses a second holder of an asset or of a .sol alias", async () => {
        const store = await seeded();
        const held = await store.findPassport("orbit-scout");
        const asset = await conflictOf(() =>
          store.write({ agents: [passport("other-agent", { assetAddress: held?.assetAddress })] }),
        );
        expect(asset.at).toBe("agents[0].assetAddress");
        const sol = await conflictOf(() =>
          store.write({ agents: [passport("other-agent", { primarySol: "orbit-scout.sol" })] }),
        );
        expect(sol.at).toBe("agents[0].primarySol");
      });
    });

    describe("the catalog", () => {
      it("refuses a manifest capability missing from the catalog, even unchecked", async () => {
        const store = await seeded();
        const manifest = manifestOf("new-agent", ["trading:token-screening", "trading:teleportation"]);
        const conflict = await conflictOf(() => store.write({ agents: [passport("new-agent", { manifest })] }));
        expect(conflict.at).toBe("agents[0].manifest.capabilities[1]");
        expect(await store.findPassport("new-agent")).toBeUndefined();
      });

      it("merges families by id: replaces their text, adds options, removes nothing, keeps the order", async () => {
        const store = await seeded();
        const option = { id: "sniping", name: "Launch sniping", description: "Buys new launches." };
        const data = { id: "data", name: "Data", description: "Reading chain data.", options: [] };
        await store.write({
          agents: [],
          skills: [{ ...catalog[0], name: "Trading desk", options: [option] } as SkillFamily, data],
        });
        expect(await store.skills()).toEqual([
          { ...catalog[0], name: "Trading desk", options: [...(catalog[0] as SkillFamily).options, option] },
          data,
        ]);
      });
    });

    describe("reads", () => {
      it("lists newest first, ties by name, up to the limit", async () => {
        const store = await seeded();
        await store.write({
          agents: [
            passport("bravo-agent", { createdAt: 1790000000000 }),
            passport("alpha-agent", { createdAt: 1790000000000 }),
            passport("oldest-agent", { createdAt: 1700000000000 }),
          ],
        });
        expect((await store.listAgents(3)).map((a) => a.name)).toEqual(["alpha-agent", "bravo-agent", "orbit-scout"]);
        expect(await store.listAgents(100)).toHaveLength(4);
      });

      it("gives a native passport its display casing for aliases but not in the list", async () => {
        const store = await seeded();
        expect(await store.findPassport("orbit-scout")).toMatchObject({
          displayName: "Orbit-Scout",
          primarySol: "orbit-scout.sol",
        });
        expect((await store.listAgents(1))[0]).not.toHaveProperty("displayName");
        expect(await store.manifest("orbit-scout")).toBeUndefined();
        expect(await store.card("orbit-scout")).toBeUndefined();
      });
    });

    describe("updates", () => {
      it("hands back a passport exactly as written, and who holds each unique value", async () => {
        const store = await seeded();
        expect(await store.record("orbit-scout")).toEqual(
          passport("orbit-scout", { displayName: "Orbit-Scout", primarySol: "orbit-scout.sol" }),
        );
        expect(await store.record("nobody-here")).toBeUndefined();
        expect(await store.holderOf("primarySol", "orbit-scout.sol")).toEqual({ name: "orbit-scout", kind: "native" });
        expect(await store.holderOf("assetAddress", "nothing")).toBeUndefined();
      });

      it("replaces a passport and its capabilities with upsert, and refuses the same write without it", async () => {
        const store = await seeded();
        const updated = passport("orbit-scout", {
          description: "Now with a manifest.",
          manifest: manifestOf("orbit-scout", ["trading:token-screening"]),
        });
        expect((await conflictOf(() => store.write({ agents: [updated] }))).at).toBe("agents[0].name");
        await store.write({ agents: [updated] }, { upsert: true });
        expect(await store.record("orbit-scout")).toEqual(updated);
        await store.write({ agents: [updated] }, { upsert: true });
        expect((await store.manifest("orbit-scout"))?.capabilities).toEqual(["trading:token-screening"]);
      });
    });
  });
}
