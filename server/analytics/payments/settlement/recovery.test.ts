// Recovery over a real ledger and a backend whose chain answers as each case needs.
import { describe, expect, it } from "vitest";
import { attemptOf, reservation, split } from "../../../../test/contracts/ledger.js";
import { newTask } from "../../../../test/contracts/tasks.js";
import { createLogger } from "../../../http/logger.js";
import { manualClock } from "../../clock.js";
import { openSqliteLedger } from "../ledger/sqlite-ledger.js";
import type { PaymentEvent } from "../reporting/payment-events.js";
import { createRecovery, RECOVERY } from "./recovery.js";
import { ledgerBackend, type SettlementBackend, type SettlementState } from "./settlement.js";

const T0 = 1_800_000_000_000;
const answer = { status: 200, body: "{}" };

function setup(backend: SettlementBackend) {
  const clock = manualClock(T0);
  const ledger = openSqliteLedger(":memory:", { now: () => clock.now() });
  const reported: PaymentEvent[] = [];
  const observer = { payment: (event: PaymentEvent) => reported.push(event), settlement() {} };
  const recovery = createRecovery({
    ledger,
    backend,
    clock,
    logger: createLogger("silent"),
    split: (_n, amount) => split(amount),
    observer,
  });
  return { clock, ledger, recovery, reported };
}

const chain = (state: () => SettlementState | Promise<SettlementState>, seen: unknown[] = []): SettlementBackend => ({
  mode: "facilitator",
  timeoutMs: 1000,
  settle: async () => ({ ok: true, transaction: "0x", simulated: false }),
  status: async (payment) => {
    seen.push(payment);
    return state();
  },
});

describe("payment recovery", () => {
  it("leaves payments within their deadline alone", async () => {
    const { ledger, recovery } = setup(chain(() => ({ state: "settled", transaction: "0x1" })));
    await ledger.reserve(reservation("a", {}, T0));
    expect(await recovery.run()).toEqual({ released: 0, settled: 0, awaiting: 0, answersDropped: 0 });
    expect((await ledger.rows()).map((r) => r.status)).toEqual(["verified"]);
  });

  it("releases a payment left verified past its deadline (its process stopped): never charged, its key free", async () => {
    const { clock, ledger, recovery } = setup(chain(() => ({ state: "open", why: "" })));
    await ledger.reserve(reservation("a", {}, T0));
    clock.advance(30_000);
    expect(await recovery.run()).toMatchObject({ released: 1 });
    expect((await ledger.rows())[0]).toMatchObject({ status: "not_charged", recovery: RECOVERY.releasedUnanswered });
    expect(await ledger.reserve(reservation("a", {}, clock.now()))).toEqual({
      reserved: true,
      entry: expect.any(Number),
    });
  });

  it("asks the chain about a settling payment with what the client signed, and settles it with the split when the money moved", async () => {
    const seen: unknown[] = [];
    const { clock, ledger, recovery } = setup(chain(() => ({ state: "settled", transaction: "0xonchain" }), seen));
    const a = await attemptOf(ledger, reservation("a", { payload: '{"authorization":{"nonce":"0x1"}}' }, T0));
    await ledger.beginSettling(a, answer, T0 + 5_000);
    clock.advance(5_000);
    expect(await recovery.run()).toMatchObject({ settled: 1 });
    expect(seen).toEqual([
      {
        network: "base-sepolia",
        payer: "0xpayer",
        payload: { authorization: { nonce: "0x1" } },
        expiresAt: T0 + 60_000,
        createdAt: T0,
      },
    ]);
    expect((await ledger.rows())[0]).toMatchObject({ status: "settled", transaction: "0xonchain", hasAnswer: true });
    expect((await ledger.totals()).byAccount.map((a) => a.amount)).toEqual([900n, 100n]);
  });

  it("postpones a settling payment while its outcome is open or the chain cannot be asked, then resolves it", async () => {
    let state: () => SettlementState | Promise<SettlementState> = () => Promise.reject(new Error("rpc down"));
    const { clock, ledger, recovery } = setup(chain(() => state()));
    const a = await attemptOf(ledger, reservation("a", {}, T0));
    await ledger.beginSettling(a, answer, T0 + 5_000);
    clock.advance(5_000);
    expect(await recovery.run()).toMatchObject({ awaiting: 1 });
    state = () => ({ state: "open", why: "still valid" });
    expect(await recovery.run()).toMatchObject({ awaiting: 0 }); // postponed: not due yet
    clock.advance(15_000);
    expect(await recovery.run()).toMatchObject({ awaiting: 1 });
    expect((await ledger.rows())[0]).toMatchObject({ status: "settling", recovery: RECOVERY.awaiting });
    state = () => ({ state: "unsettled", why: "the authorization expired unused" });
    clock.advance(15_000);
    expect(await recovery.run()).toMatchObject({ released: 1 });
    expect((await ledger.rows())[0]).toMatchObject({
      status: "not_charged",
      reason: "the authorization expired unused",
    });
  });

  it("leaves a settling payment to the backend that began it when running on the ledger backend, which never begins one", async () => {
    const { clock, ledger, recovery } = setup(ledgerBackend);
    const a = await attemptOf(ledger, reservation("a", {}, T0));
    await ledger.beginSettling(a, answer, T0 + 1);
    clock.advance(1);
    expect(await recovery.run()).toMatchObject({ released: 0, settled: 0, awaiting: 1 });
    expect((await ledger.rows())[0]).toMatchObject({ status: "settling", recovery: RECOVERY.awaitingOtherBackend });
  });

  it("counts nothing, and warns of nothing, when another writer resolved the payment between its listing and its move", async () => {
    const warned: unknown[] = [];
    const logger = Object.assign(createLogger("silent"), { warn: (fields: unknown) => warned.push(fields) });
    const clock = manualClock(T0);
    const ledger = openSqliteLedger(":memory:", { now: () => clock.now() });
    const a = await attemptOf(ledger, reservation("a", {}, T0));
    await ledger.beginSettling(a, answer, T0 + 5_000);
    // another instance's recovery confirms it while this one asks the chain
    const backend = chain(async () => {
      await ledger.confirmOnChain(a.entry, { transaction: "0xother", simulated: false, split: split(1000n) });
      return { state: "unsettled", why: "stale view" };
    });
    const recovery = createRecovery({ ledger, backend, clock, logger, split: (_n, amount) => split(amount) });
    clock.advance(5_000);
    expect(await recovery.run()).toEqual({ released: 0, settled: 0, awaiting: 0, answersDropped: 0 });
    expect(warned).toEqual([]);
    expect((await ledger.rows())[0]).toMatchObject({ status: "settled", transaction: "0xother" });
  });

  it("drops stored answers once their payment's window has passed", async () => {
    const { clock, ledger, recovery } = setup(ledgerBackend);
    const a = await attemptOf(ledger, reservation("a", {}, T0));
    await ledger.settleWithAnswer(a, { transaction: "t", simulated: true, split: split(1000n) }, answer);
    clock.advance(61_000);
    expect(await recovery.run()).toMatchObject({ answersDropped: 1 });
    expect((await ledger.rows())[0]).toMatchObject({ status: "settled", hasAnswer: false });
  });

  it("deletes the A2A tasks expired in the ledger's database, when given its task store", async () => {
    const clock = manualClock(T0);
    const ledger = openSqliteLedger(":memory:", { now: () => clock.now() });
    const { tasks } = ledger;
    const recovery = createRecovery({
      ledger,
      tasks,
      backend: ledgerBackend,
      clock,
      logger: createLogger("silent"),
      split: (_n, amount) => split(amount),
    });
    const expiring = newTask(T0, { expiresAt: T0 + 60_000 });
    const kept = newTask(T0, { expiresAt: T0 + 120_000 });
    for (const task of [expiring, kept]) await tasks.create(task);
    expect(await recovery.run()).toMatchObject({ tasksDropped: 0 });
    clock.advance(61_000);
    expect(await recovery.run()).toMatchObject({ tasksDropped: 1 });
    expect(await tasks.get(expiring.id, T0)).toBeUndefined();
    expect((await tasks.get(kept.id, clock.now()))?.id).toBe(kept.id);
  });

  it("reports each payment it resolved, as settled or released, and nothing for one it postponed", async () => {
    let state: SettlementState = { state: "settled", transaction: "0x1" };
    const { clock, ledger, recovery, reported } = setup(chain(() => state));
    await ledger.reserve(reservation("unanswered", {}, T0));
    const moved = await attemptOf(ledger, reservation("moved", {}, T0));
    await ledger.beginSettling(moved, answer, T0 + 5_000);
    clock.advance(30_000);
    await recovery.run();
    expect(reported.map((e) => e.reason).sort()).toEqual(["released", "settled"]);
    expect(reported.every((e) => e.outcome === "recovered" && e.network === "base-sepolia" && e.version === "")).toBe(
      true,
    );
    // the settled one brings its amount, for the revenue counter; the released one nothing
    expect(reported.map((e) => [e.reason, e.amount]).sort()).toEqual([
      ["released", undefined],
      ["settled", 1000n],
    ]);

    state = { state: "open", why: "still valid" };
    const open = await attemptOf(ledger, reservation("open", {}, clock.now()));
    await ledger.beginSettling(open, answer, clock.now() + 5_000);
    clock.advance(5_000);
    await recovery.run();
    expect(reported).toHaveLength(2);
  });
});
