import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../http/logger.js";
import { createRegistryService } from "./service.js";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe("createRegistryService", () => {
  it("creates, migrates and seeds the database file once, then serves it", async () => {
    const folder = mkdtempSync(join(tmpdir(), "registry-service-"));
    folders.push(folder);
    const dbPath = join(folder, "state", "registry.db");
    const options = { dbPath, logger: createLogger("silent"), validateResponses: true };

    const first = await createRegistryService(options);
    expect(existsSync(dbPath)).toBe(true);
    const seeded = (await first.store.listAgents(100)).length;
    expect(seeded).toBeGreaterThanOrEqual(10);
    await first.store.write({
      agents: [
        {
          name: "late-comer",
          assetAddress: "Gm8ZBzyKYoy8NaEp6D8WBHmu7i7HGeBGtZYNDmU8KZu5",
          ownerWallet: "GThUX1Atko4tqhN2NaiTazWSeFWMuiUvfFnyJyUghFMJ",
          description: "Minted after the seed.",
          createdAt: 1795000000000,
        },
      ],
    });
    await first.close();

    const second = await createRegistryService(options);
    const response = await request(second.app).get("/api/agents?limit=100");
    await second.close();
    expect(response.status).toBe(200);
    expect(response.body.agents).toHaveLength(seeded + 1);
    expect(response.body.agents[0].name).toBe("late-comer");
  });
});
