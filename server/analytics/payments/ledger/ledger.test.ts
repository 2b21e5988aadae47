import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { splitPayment } from "./split.js";
import { openSqliteLedger } from "./sqlite-ledger.js";

const reservation = (key: string, amount = 1000n) => ({
  key,
  network: "base-sepolia",
  payer: "0xpayer",
  amount,
  endpoint: "defiTvl",
  requestId: "r",
});
const split = (amount: bigint) => {
  const { service, treasury } = splitPayment(amount, 1000);
  return { service: { address: "0xservice", amount: service }, treasury: { address: "0xtreasury", amount: treasury } };
};

describe("splitPayment", () => {
  it("gives the treasury the floor of 10% and the service the rest", () => {
    expect(splitPayment(1000n, 1000)).toEqual({ service: 900n, treasury: 100n });
    expect(splitPayment(25_000n, 1000)).toEqual({ service: 22_500n, treasury: 2_500n });
    expect(splitPayment(15n, 1000)).toEqual({ service: 14n, treasury: 1n });
    expect(splitPayment(9n, 1000)).toEqual({ service: 9n, treasury: 0n });
  });

  it("always adds up to the amount", () => {
    for (let amount = 0n; amount < 2_000n; amount += 7n) {
      const { service, treasury } = splitPayment(amount, 1000);
      expect(service + treasury).toBe(amount);
      expect(service).toBeGreaterThanOrEqual(treasury);
    }
  });

  it("rejects impossible inputs", () => {
    expect(() => splitPayment(-1n, 1000)).toThrow(RangeError);
    expect(() => splitPayment(1n, 10_001)).toThrow(RangeError);
  });
});

describe("SQLite ledger", () => {
  it("reserves a payment once, settles it with its split, and keeps refusing it afterwards", async () => {
    const ledger = openSqliteLedger(":memory:");
    expect(await ledger.reserve(reservation("base-sepolia:0xabc"))).toBe(true);
    expect(await ledger.reserve(reservation("base-sepolia:0xabc"))).toBe(false);
    await ledger.settled("base-sepolia:0xabc", { transaction: "0xtx", simulated: false, split: split(1000n) });
    expect(await ledger.reserve(reservation("base-sepolia:0xabc"))).toBe(false);
    const [row] = await ledger.rows();
    expect(row).toMatchObject({ status: "settled", transaction: "0xtx", amount: 1000n, simulated: false });
    const totals = await ledger.totals();
    expect(totals.byAccount.map((a) => [a.account, a.amount])).toEqual([
      ["service", 900n],
      ["treasury", 100n],
    ]);
    expect(totals.byEndpoint).toEqual([{ endpoint: "defiTvl", payments: 1, amount: 1000n }]);
  });

  it("frees the key of a payment not charged or failed, and keeps the record", async () => {
    const ledger = openSqliteLedger(":memory:");
    await ledger.reserve(reservation("k1"));
    await ledger.notCharged("k1", "upstream_error");
    await ledger.reserve(reservation("k2"));
    await ledger.failed("k2", "insufficient_funds");
    expect(await ledger.reserve(reservation("k1"))).toBe(true);
    expect(await ledger.reserve(reservation("k2"))).toBe(true);
    const statuses = (await ledger.rows()).map((r) => `${r.key}:${r.status}`);
    expect(statuses).toEqual(["k1:not_charged", "k2:failed", "k1:verified", "k2:verified"]);
    expect((await ledger.totals()).byNetwork).toEqual([]);
  });

  it("refuses to settle a payment that is not reserved", async () => {
    const ledger = openSqliteLedger(":memory:");
    await expect(ledger.settled("nope", { transaction: "t", simulated: true, split: split(1n) })).rejects.toThrow(/no verified payment/);
  });

  it("lets only one of two processes sharing the database file reserve the same payment", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "ledger-")), "ledger.db");
    const mine = openSqliteLedger(file);
    const keys = Array.from({ length: 40 }, (_, i) => `base-sepolia:0x${i}`);
    const script = `
      import { openSqliteLedger } from ${JSON.stringify(new URL("./sqlite-ledger.ts", import.meta.url).pathname)};
      const ledger = openSqliteLedger(${JSON.stringify(file)});
      let won = 0;
      for (const key of ${JSON.stringify(keys)}) if (await ledger.reserve({ key, network: "base-sepolia", payer: "p", amount: 1n, endpoint: "e", requestId: "child" })) won++;
      console.log(won);`;
    const child = new Promise<number>((resolve, reject) =>
      execFile(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], (error, stdout) =>
        error ? reject(error) : resolve(Number(stdout.trim())),
      ),
    );
    // the child needs a moment to load; racing it key by key while it runs
    await new Promise((resolve) => setTimeout(resolve, 400));
    let mineWon = 0;
    for (const key of keys) if (await mine.reserve(reservation(key))) mineWon++;
    const theirs = await child;
    expect(mineWon + theirs).toBe(keys.length);
    expect((await mine.rows()).length).toBe(keys.length);
  });
});
