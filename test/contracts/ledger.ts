/**
 * The ledger's contract, run against every store implementation: reservation and replays, the
 * stages and their conditions, the split, stored answers, recovery's queries, totals.
 */
import { describe, expect, it } from "vitest";
import { splitPayment } from "../../server/analytics/payments/ledger/split.js";
import {
  freesKey,
  type Guard,
  MOVES,
  type MoveName,
  RECOVERY_RECORDS,
  type Refusal,
  STAGES,
  type Stage,
  TRANSITIONS,
} from "../../server/analytics/payments/ledger/stages.js";
import type {
  Attempt,
  LedgerStore,
  Move,
  ReservationRequest,
  Transport,
} from "../../server/analytics/payments/ledger/store.js";

export interface LedgerFixture {
  ledger: LedgerStore;
  /** Moves the store's clock. */
  advance(ms: number): void;
  now(): number;
}

const T0 = 1_800_000_000_000;

export const reservation = (
  key: string,
  overrides: Partial<ReservationRequest> = {},
  now = T0,
): ReservationRequest => ({
  key,
  network: "base-sepolia",
  payer: "0xpayer",
  amount: 1000n,
  endpoint: "defiTvl",
  requestId: "r",
  transport: "http",
  fingerprint: "f1",
  payload: '{"authorization":{}}',
  deadlineAt: now + 30_000,
  expiresAt: now + 60_000,
  holder: `holder-${key}`,
  ...overrides,
});

export const split = (amount: bigint) => {
  const { service, treasury } = splitPayment(amount, 1000);
  return { service: { address: "0xservice", amount: service }, treasury: { address: "0xtreasury", amount: treasury } };
};

/** Reserves a fresh payment and returns the reservation as its attempt names it. */
export async function attemptOf(ledger: LedgerStore, request: ReservationRequest): Promise<Attempt> {
  const reservation = await ledger.reserve(request);
  if (!reservation.reserved) throw new Error(`${request.key} is held already`);
  return { entry: reservation.entry, holder: request.holder };
}

/** What a move comes to: made, refused by name in the stage the payment is in, or refused for want of a payment. */
const MOVED: Move = { moved: true };
const refused = (refusedBy: Exclude<Refusal, "no such payment">, stage: Stage): Move => ({
  moved: false,
  refusedBy,
  stage,
});
const NO_SUCH_PAYMENT: Move = { moved: false, refusedBy: "no such payment" };

const settlement = (transaction = "0xtx", amount = 1000n) => ({ transaction, simulated: false, split: split(amount) });
const answer = { status: 200, body: '{"data":{}}' };

/** A payment brought to a stage of the table, with what its request and recovery name it by. */
interface Placed {
  stage: Stage;
  key: string;
  attempt: Attempt;
}

/** Brings a fresh payment to `stage` by the moves the table allows (settling's deadline: 10 s on; verified's: 30 s). */
async function placed(ledger: LedgerStore, stage: Stage, now: number, key = `walk-${stage}`): Promise<Placed> {
  const attempt = await attemptOf(ledger, reservation(key, {}, now));
  const moved = {
    verified: async () => MOVED,
    settling: () => ledger.beginSettling(attempt, answer, now + 10_000),
    settled: () => ledger.settleWithAnswer(attempt, settlement(), answer),
    not_charged: () => ledger.release(attempt, "placed"),
    failed: () => ledger.refuse(attempt, "placed"),
  }[stage];
  if (!(await moved()).moved) throw new Error(`could not place a payment in ${stage}`);
  return { stage, key, attempt };
}

type MoveCall = (ledger: LedgerStore, payment: Placed, now: number) => Promise<Move>;

/** Each transition but the reservation, made as its actor makes it: the request by its attempt, recovery by the entry. */
const CALLS: Record<MoveName, MoveCall> = {
  beginSettling: (l, p, now) => l.beginSettling(p.attempt, answer, now + 10_000),
  settleWithAnswer: (l, p) => l.settleWithAnswer(p.attempt, settlement(), answer),
  confirmSettlement: (l, p) => l.confirmSettlement(p.attempt, settlement()),
  release: (l, p) => l.release(p.attempt, "walk"),
  refuse: (l, p) => l.refuse(p.attempt, "walk"),
  abandon: (l, p) => l.abandon(p.key, p.attempt.holder, "walk"),
  expire: (l, p) => l.expire(p.attempt.entry),
  confirmOnChain: (l, p) => l.confirmOnChain(p.attempt.entry, settlement()),
  voidOnChain: (l, p) => l.voidOnChain(p.attempt.entry, "walk"),
  postpone: (l, p, now) => l.postpone(p.attempt.entry, now, "awaiting: walk"),
};

/** The same move made by what its guards refuse: another attempt, the other side of the deadline, another holder. */
const stranger = (payment: Placed): Placed => ({
  ...payment,
  attempt: { ...payment.attempt, holder: "another-attempt" },
});

/** The same move for a payment the ledger does not have: an entry never given, a key no payment holds. */
const nowhere = (payment: Placed): Placed => ({
  ...payment,
  key: "nowhere",
  attempt: { ...payment.attempt, entry: payment.attempt.entry + 1_000_000 },
});

/** The stages a release leaves a payment in: its key is free, so no payment holds it any more. */
const freed = (stage: Stage) => MOVES.some((move) => freesKey(move) && TRANSITIONS[move].to === stage);

const stageOf = async (ledger: LedgerStore, payment: Placed) =>
  (await ledger.rows()).find((row) => row.id === payment.attempt.entry)?.status;

/**
 * The table of stages.ts, walked on a store: each transition, from each stage, moves a payment exactly when the table
 * lets it leave that stage, to the stage the table says, once; and not when one of its guards fails.
 */
function describeTransitionTable(open: (start: number) => Promise<LedgerFixture>): void {
  describe("the transition table", () => {
    it("reserves a key once, until a release frees it", async () => {
      const { ledger } = await open(T0);
      expect(await ledger.reserve(reservation("k"))).toMatchObject({ reserved: true });
      expect(await ledger.reserve(reservation("k", { holder: "other" }))).toMatchObject({ reserved: false });
      const held = await attemptOf(ledger, reservation("free"));
      await ledger.release(held, "freed");
      expect(await ledger.reserve(reservation("free", { holder: "again" }))).toMatchObject({ reserved: true });
      await ledger.close();
    });

    for (const [name, move] of Object.entries(CALLS) as [MoveName, MoveCall][]) {
      const { from, to, guards } = TRANSITIONS[name];
      const leaves = (stage: Stage) => (from as readonly Stage[]).includes(stage);
      const guarded = (guard: Guard) => (guards as readonly Guard[]).includes(guard);
      // The request's moves name their attempt, `abandon` the attempt's token with the key it holds.
      const identity = guarded("attempt") ? "attempt" : guarded("holder") ? "holder" : undefined;
      /** Moved when the table lets it leave `stage`; else refused by the stage (`abandon`: no payment holds a freed key). */
      const expected = (stage: Stage): Move =>
        leaves(stage) ? MOVED : identity === "holder" && freed(stage) ? NO_SUCH_PAYMENT : refused("stage", stage);
      it(`${name}: ${from.join(" or ")} → ${to}, from no other stage, once, and only as its guards allow, each refusal named`, async () => {
        const { ledger, advance, now } = await open(T0);
        const payments = [];
        for (const stage of STAGES) payments.push(await placed(ledger, stage, now()));
        // a move guarded by a deadline past is made past every deadline (verified's and settling's alike)
        if (guarded("past deadline")) {
          for (const payment of payments.filter((p) => leaves(p.stage)))
            expect(await move(ledger, payment, now())).toEqual(refused("past deadline", payment.stage));
          advance(40_000);
        }
        for (const payment of payments) {
          expect(await move(ledger, nowhere(payment), now()), "for no payment").toEqual(NO_SUCH_PAYMENT);
          if (identity && leaves(payment.stage))
            expect(await move(ledger, stranger(payment), now()), `${payment.stage} by another`).toEqual(
              refused(identity, payment.stage),
            );
          expect(await move(ledger, payment, now()), `from ${payment.stage}`).toEqual(expected(payment.stage));
          expect(await stageOf(ledger, payment)).toBe(leaves(payment.stage) ? to : payment.stage);
          // once: the payment has left the stage it was in (a move that stays, postpone, may be made again)
          if (leaves(payment.stage) && !leaves(to))
            expect(await move(ledger, payment, now()), `again from ${to}`).toEqual(expected(to));
        }
        if (guarded("before deadline")) {
          const late = await placed(ledger, "verified", now(), "walk-late");
          advance(31_000);
          expect(await move(ledger, late, now()), "past its deadline").toEqual(refused("before deadline", "verified"));
        }
        await ledger.close();
      });
    }
  });
}

export function describeLedgerContract(name: string, open: (start: number) => Promise<LedgerFixture>): void {
  describe(`${name} ledger`, () => {
    describeTransitionTable(open);

    it("reserves a payment once and says what holds it", async () => {
      const { ledger } = await open(T0);
      expect(await ledger.reserve(reservation("k"))).toEqual({ reserved: true, entry: expect.any(Number) });
      const again = await ledger.reserve(reservation("k", { fingerprint: "f2" }));
      expect(again).toMatchObject({
        reserved: false,
        existing: { status: "verified", fingerprint: "f1", payer: "0xpayer" },
      });
      expect(again.reserved === false && again.existing.answer).toBeUndefined();
      await ledger.close();
    });

    it("records the transport each payment came by, one at a time and in batches", async () => {
      const { ledger } = await open(T0);
      const transports = Array.from(
        { length: 12 },
        (_, i): Transport => (["http", "mcp", "a2a"] as const)[i % 3] as Transport,
      );
      await ledger.reserve(reservation("alone", { transport: "mcp" }));
      await Promise.all(transports.map((transport, i) => ledger.reserve(reservation(`many-${i}`, { transport }))));
      const byKey = new Map((await ledger.rows()).map((row) => [row.key, row.transport]));
      expect(byKey.get("alone")).toBe("mcp");
      expect(transports.map((_, i) => byKey.get(`many-${i}`))).toEqual(transports);
      await ledger.close();
    });

    it("lets exactly one of many concurrent reservations of one key win", async () => {
      const { ledger } = await open(T0);
      const results = await Promise.all(Array.from({ length: 30 }, () => ledger.reserve(reservation("hot"))));
      expect(results.filter((r) => r.reserved)).toHaveLength(1);
      await ledger.close();
    });

    it("gives each of many concurrent payments its own outcome, its own split and its own answer", async () => {
      const { ledger } = await open(T0);
      await ledger.reserve(reservation("held", { fingerprint: "first" }));
      const keys = Array.from({ length: 24 }, (_, i) => `k${String(i).padStart(2, "0")}`);
      const amountOf = (i: number) => BigInt(1000 + 10 * i);
      // In one turn: fresh keys in a shuffled order, a replay of a held key, and one key twice.
      const order = keys.map((_, i) => (i * 7) % keys.length);
      const reservations = await Promise.all([
        ...order.map((i) =>
          ledger.reserve(reservation(keys[i] as string, { amount: amountOf(i), requestId: `r${i}` })),
        ),
        ledger.reserve(reservation("held", { fingerprint: "second" })),
        ledger.reserve(reservation("twice", { fingerprint: "a" })),
        ledger.reserve(reservation("twice", { fingerprint: "b" })),
      ]);
      expect(reservations.slice(0, keys.length)).toEqual(
        keys.map(() => ({ reserved: true, entry: expect.any(Number) })),
      );
      const entries = reservations.slice(0, keys.length).map((r) => (r.reserved ? r.entry : 0));
      expect(new Set(entries).size).toBe(keys.length);
      const entryOfKey = (i: number): Attempt => ({
        entry: entries[order.indexOf(i)] as number,
        holder: `holder-${keys[i]}`,
      });
      expect(reservations[keys.length]).toMatchObject({
        reserved: false,
        existing: { status: "verified", fingerprint: "first" },
      });
      // One of the two copies won, and the payment held is that copy's own request.
      const [a, b] = reservations.slice(-2);
      expect([a?.reserved, b?.reserved].sort()).toEqual([false, true]);
      expect(a?.reserved ? b : a).toMatchObject({
        reserved: false,
        existing: { fingerprint: a?.reserved ? "a" : "b" },
      });

      await ledger.release(entryOfKey(3), "the answer failed");
      const settled = await Promise.all(
        order.map((i) =>
          ledger.settleWithAnswer(entryOfKey(i), settlement(`0xtx${i}`, amountOf(i)), {
            status: i % 2 ? 206 : 200,
            body: `{"i":${i}}`,
          }),
        ),
      );
      expect(settled).toEqual(order.map((i) => (i === 3 ? refused("stage", "not_charged") : MOVED)));
      for (const [i, key] of keys.entries()) {
        const held = await ledger.reserve(reservation(key));
        if (i === 3) expect(held).toEqual({ reserved: true, entry: expect.any(Number) });
        else
          expect(held).toMatchObject({
            reserved: false,
            existing: {
              status: "settled",
              amount: amountOf(i),
              answer: { status: i % 2 ? 206 : 200, body: `{"i":${i}}` },
              settlement: { transaction: `0xtx${i}` },
            },
          });
      }
      const totals = await ledger.totals();
      const charged = keys.reduce((sum, _, i) => (i === 3 ? sum : sum + amountOf(i)), 0n);
      expect(totals.byAccount.reduce((sum, a) => sum + a.amount, 0n)).toBe(charged);
      await ledger.close();
    });

    it("settles with the answer in one step from verified, with its split and receipt data", async () => {
      const { ledger } = await open(T0);
      const k = await attemptOf(ledger, reservation("k"));
      expect(await ledger.settleWithAnswer(k, settlement(), answer)).toEqual(MOVED);
      const held = await ledger.reserve(reservation("k"));
      expect(held).toEqual({
        reserved: false,
        by: "key",
        existing: {
          key: "k",
          status: "settled",
          fingerprint: "f1",
          expiresAt: T0 + 60_000,
          deadlineAt: T0 + 30_000,
          payer: "0xpayer",
          network: "base-sepolia",
          amount: 1000n,
          answer,
          answerUntil: T0 + 60_000,
          settlement: { transaction: "0xtx", simulated: false },
        },
      });
      // read without reserving: the same holder, and nothing for a key no payment holds
      expect(await ledger.held("k")).toEqual(held.reserved === false ? held.existing : undefined);
      expect(await ledger.held("unknown")).toBeUndefined();
      const [row] = await ledger.rows();
      expect(row).toMatchObject({
        status: "settled",
        transaction: "0xtx",
        amount: 1000n,
        hasAnswer: true,
        recovery: null,
      });
      const totals = await ledger.totals();
      expect(totals.byAccount.map((a) => [a.account, a.amount])).toEqual([
        ["service", 900n],
        ["treasury", 100n],
      ]);
      expect(totals.byEndpoint).toEqual([{ endpoint: "defiTvl", payments: 1, amount: 1000n }]);
      await ledger.close();
    });

    it("goes through settling with the answer stored before an outside settlement", async () => {
      const { ledger, now } = await open(T0);
      const k = await attemptOf(ledger, reservation("k"));
      expect(await ledger.beginSettling(k, answer, now() + 40_000)).toEqual(MOVED);
      expect(await ledger.beginSettling(k, answer, now() + 40_000)).toEqual(refused("stage", "settling"));
      const held = await ledger.reserve(reservation("k"));
      expect(held).toMatchObject({ reserved: false, existing: { status: "settling", answer } });
      // not from settling with a new answer
      expect(await ledger.settleWithAnswer(k, settlement(), answer)).toEqual(refused("stage", "settling"));
      expect(await ledger.confirmSettlement(k, settlement())).toEqual(MOVED);
      expect(await ledger.confirmSettlement(k, settlement())).toEqual(refused("stage", "settled"));
      expect((await ledger.rows()).map((r) => r.status)).toEqual(["settled"]);
      await ledger.close();
    });

    it("refuses to settle or start settling a payment past its deadline", async () => {
      const { ledger, advance, now } = await open(T0);
      const a = await attemptOf(ledger, reservation("a"));
      const b = await attemptOf(ledger, reservation("b"));
      advance(30_000);
      expect(await ledger.settleWithAnswer(a, settlement(), answer)).toEqual(refused("before deadline", "verified"));
      expect(await ledger.beginSettling(b, answer, now() + 1)).toEqual(refused("before deadline", "verified"));
      expect(
        await ledger.settleWithAnswer({ entry: a.entry + b.entry + 1, holder: a.holder }, settlement(), answer),
      ).toEqual(NO_SUCH_PAYMENT);
      expect((await ledger.rows()).map((r) => r.status)).toEqual(["verified", "verified"]);
      await ledger.close();
    });

    it("releases a payment as not charged or failed, frees its key, drops its answer, keeps the record", async () => {
      const { ledger, now } = await open(T0);
      const k1 = await attemptOf(ledger, reservation("k1"));
      expect(await ledger.release(k1, "upstream_error")).toEqual(MOVED);
      const k2 = await attemptOf(ledger, reservation("k2"));
      await ledger.beginSettling(k2, answer, now() + 40_000);
      expect(await ledger.refuse(k2, "insufficient_funds")).toEqual(MOVED);
      expect(await ledger.refuse(k2, "again")).toEqual(refused("stage", "failed"));
      expect(await ledger.reserve(reservation("k1"))).toEqual({ reserved: true, entry: expect.any(Number) });
      expect(await ledger.reserve(reservation("k2"))).toEqual({ reserved: true, entry: expect.any(Number) });
      const rows = await ledger.rows();
      expect(rows.map((r) => `${r.key}:${r.status}:${r.hasAnswer}`)).toEqual([
        "k1:not_charged:false",
        "k2:failed:false",
        "k1:verified:false",
        "k2:verified:false",
      ]);
      expect(rows[1]?.reason).toBe("insufficient_funds");
      expect((await ledger.totals()).byNetwork).toEqual([]);
      await ledger.close();
    });

    it("moves a reservation only by the attempt that made it, in every stage, whatever its entry number", async () => {
      const { ledger, now } = await open(T0);
      // As after a database crash that lost a reservation: another payment's reservation under the entry number the
      // first attempt was given. That attempt's writes name its own token, and move nothing of the other's.
      const other = await attemptOf(ledger, reservation("other", { holder: "other-attempt" }));
      const stale = { entry: other.entry, holder: "lost-attempt" };
      const another = (stage: Stage) => refused("attempt", stage);
      expect(await ledger.settleWithAnswer(stale, settlement("0xstale"), answer)).toEqual(another("verified"));
      expect(await ledger.beginSettling(stale, answer, now() + 10_000)).toEqual(another("verified"));
      expect(await ledger.release(stale, "the stale attempt gave up")).toEqual(another("verified"));
      expect(await ledger.beginSettling(other, answer, now() + 10_000)).toEqual(MOVED);
      expect(await ledger.confirmSettlement(stale, settlement("0xstale"))).toEqual(another("settling"));
      expect(await ledger.refuse(stale, "stale refusal")).toEqual(another("settling"));
      expect((await ledger.rows()).map((r) => [r.status, r.transaction])).toEqual([["settling", null]]);
      expect(await ledger.confirmSettlement(other, settlement("0xother"))).toEqual(MOVED);
      // and every batch of settlements with answers checks each item's attempt on its own
      const attempts = await Promise.all(["x1", "x2", "x3"].map((key) => attemptOf(ledger, reservation(key))));
      const named = attempts.map((attempt, i) => (i === 1 ? { ...attempt, holder: "lost-attempt" } : attempt));
      expect(await Promise.all(named.map((attempt) => ledger.settleWithAnswer(attempt, settlement(), answer)))).toEqual(
        [MOVED, another("verified"), MOVED],
      );
      expect((await ledger.rows()).map((r) => r.status)).toEqual(["settled", "settled", "verified", "settled"]);
      await ledger.close();
    });

    it("lets a late write of a released reservation touch nothing of the same payment reserved again", async () => {
      const { ledger, advance, now } = await open(T0);
      // The first request stalls past its deadline; recovery releases its entry; the client's retry reserves anew.
      const first = await attemptOf(ledger, reservation("k", { requestId: "first" }));
      advance(30_000);
      expect(await ledger.expire(first.entry)).toEqual(MOVED);
      const retry = await attemptOf(ledger, reservation("k", { requestId: "retry", holder: "retry" }, now()));
      expect(retry.entry).not.toBe(first.entry);
      // The first request wakes: none of its writes reaches the retry's entry, in any stage.
      // Each is refused by the stage recovery left the first entry in: what a gate reads as late.
      const released = refused("stage", "not_charged");
      expect(await ledger.settleWithAnswer(first, settlement("0xlate"), answer)).toEqual(released);
      expect(await ledger.beginSettling(first, answer, now() + 10_000)).toEqual(released);
      expect(await ledger.release(first, "the late request gave up")).toEqual(released);
      expect(await ledger.beginSettling(retry, answer, now() + 10_000)).toEqual(MOVED);
      expect(await ledger.refuse(first, "late refusal")).toEqual(released);
      expect(await ledger.confirmSettlement(first, settlement("0xlate"))).toEqual(released);
      expect(await ledger.confirmSettlement(retry, settlement("0xretry"))).toEqual(MOVED);
      const rows = await ledger.rows();
      expect(rows.map((r) => [r.requestId, r.status, r.transaction])).toEqual([
        ["first", "not_charged", null],
        ["retry", "settled", "0xretry"],
      ]);
      expect((await ledger.totals()).byNetwork).toEqual([{ network: "base-sepolia", payments: 1, amount: 1000n }]);
      await ledger.close();
    });

    it("abandons a reservation only for the attempt that made it, and only while it is verified", async () => {
      const { ledger } = await open(T0);
      expect(await ledger.abandon("k", "nobody", "lost reply")).toEqual(NO_SUCH_PAYMENT);
      // A row older than the token has none: no empty token frees it.
      await attemptOf(ledger, reservation("old", { holder: "" }));
      expect(await ledger.abandon("old", "", "lost reply")).toEqual(refused("holder", "verified"));
      const lost = await attemptOf(ledger, reservation("k", { requestId: "same", holder: "first" }));
      // Another attempt (even under the same client-sent request id) cannot abandon it.
      expect(await ledger.abandon("k", "retry", "lost reply")).toEqual(refused("holder", "verified"));
      expect(await ledger.abandon("k", "first", "lost reply")).toEqual(MOVED);
      expect(await ledger.abandon("k", "first", "lost reply")).toEqual(NO_SUCH_PAYMENT);
      // The key is free again: the retry reserves it, and the first attempt's late abandon cannot touch the retry's entry.
      const retry = await attemptOf(ledger, reservation("k", { requestId: "same", holder: "retry" }));
      expect(await ledger.abandon("k", "first", "lost reply")).toEqual(refused("holder", "verified"));
      expect(await ledger.beginSettling(retry, answer, T0 + 10_000)).toEqual(MOVED);
      // Past `verified`, not even its own attempt abandons it: the answer is stored and the money may move.
      expect(await ledger.abandon("k", "retry", "lost reply")).toEqual(refused("stage", "settling"));
      const rows = await ledger.rows();
      expect(rows.filter((r) => r.key === "k").map((r) => [r.id, r.status, r.reason])).toEqual([
        [lost.entry, "not_charged", "lost reply"],
        [retry.entry, "settling", null],
      ]);
      await ledger.close();
    });

    it("lists payments past their deadline for recovery, and records what recovery did", async () => {
      const { ledger, advance, now } = await open(T0);
      const stuck = await attemptOf(ledger, reservation("stuck"));
      const settling = await attemptOf(ledger, reservation("settling"));
      await ledger.beginSettling(settling, answer, now() + 10_000);
      await ledger.settleWithAnswer(await attemptOf(ledger, reservation("done")), settlement(), answer);
      expect(await ledger.pending(now(), 10)).toEqual([]);
      advance(31_000);
      const pending = await ledger.pending(now(), 10);
      expect(pending.map((p) => [p.entry, p.key, p.status])).toEqual([
        [settling.entry, "settling", "settling"],
        [stuck.entry, "stuck", "verified"],
      ]);
      expect(pending[1]).toMatchObject({
        network: "base-sepolia",
        payer: "0xpayer",
        amount: 1000n,
        payload: '{"authorization":{}}',
      });

      expect(await ledger.expire(stuck.entry)).toEqual(MOVED);
      expect(await ledger.expire(stuck.entry)).toEqual(refused("stage", "not_charged"));
      expect(await ledger.postpone(settling.entry, now() + 5_000, "awaiting: y")).toEqual(MOVED);
      expect(await ledger.pending(now(), 10)).toEqual([]);
      // postponed: not due before its new deadline, as another instance's recovery would find it
      expect(await ledger.confirmOnChain(settling.entry, settlement("0xchain"))).toEqual(
        refused("past deadline", "settling"),
      );
      advance(5_000);
      // recovery's move of a verified payment: not this one
      expect(await ledger.expire(settling.entry)).toEqual(refused("stage", "settling"));
      expect(await ledger.confirmOnChain(settling.entry, settlement("0xchain"))).toEqual(MOVED);
      const held = await ledger.reserve(reservation("settling"));
      expect(held).toMatchObject({
        reserved: false,
        existing: { status: "settled", answer, settlement: { transaction: "0xchain" } },
      });
      const totals = await ledger.totals();
      expect(totals.byRecovery).toEqual([
        { recovery: RECOVERY_RECORDS.expire, status: "not_charged", payments: 1 },
        { recovery: RECOVERY_RECORDS.confirmOnChain, status: "settled", payments: 1 },
      ]);
      expect(totals.byNetwork).toEqual([{ network: "base-sepolia", payments: 2, amount: 2000n }]);
      await ledger.close();
    });

    it("drops stored answers once their payment expired, and keeps the payment", async () => {
      const { ledger, now } = await open(T0);
      await ledger.settleWithAnswer(await attemptOf(ledger, reservation("k")), settlement(), answer);
      expect(await ledger.dropExpiredAnswers(now() + 59_000)).toBe(0);
      expect(await ledger.dropExpiredAnswers(now() + 61_000)).toBe(1);
      const held = await ledger.reserve(reservation("k"));
      expect(held.reserved === false && held.existing.answer).toBeUndefined();
      expect((await ledger.rows()).map((r) => [r.status, r.hasAnswer])).toEqual([["settled", false]]);
      await ledger.close();
    });

    describeIdentifiers(open);
    describeLookup(open);
  });
}

/** x402's payment-identifier: bound with the reservation, looked up by itself, freed with the key or the kept answer. */
function describeIdentifiers(open: (start: number) => Promise<LedgerFixture>): void {
  const withId = (key: string, identifier: string, overrides: Partial<ReservationRequest> = {}) =>
    reservation(key, { identifier, ...overrides });

  it("binds an identifier to one payment: another payment under it conflicts by identifier, and is told which", async () => {
    const { ledger } = await open(T0);
    expect(await ledger.reserve(withId("first", "pay_0123456789abcdef"))).toMatchObject({ reserved: true });
    const second = await ledger.reserve(withId("second", "pay_0123456789abcdef", { holder: "h2" }));
    expect(second).toMatchObject({ reserved: false, by: "identifier", existing: { key: "first", status: "verified" } });
    expect(await ledger.bound("pay_0123456789abcdef")).toMatchObject({
      key: "first",
      payer: "0xpayer",
      fingerprint: "f1",
    });
    expect(await ledger.bound("pay_unknown_0123456789")).toBeUndefined();
    // the same key under another identifier conflicts by its key
    expect(await ledger.reserve(withId("first", "pay_other_0123456789", { holder: "h3" }))).toMatchObject({
      by: "key",
    });
    expect((await ledger.rows()).map((r) => [r.key, r.identifier])).toEqual([["first", "pay_0123456789abcdef"]]);
    await ledger.close();
  });

  it("lets exactly one of many concurrent payments under one identifier win", async () => {
    const { ledger } = await open(T0);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        ledger.reserve(withId(`racer-${i}`, "pay_race_0123456789", { holder: `h${i}` })),
      ),
    );
    expect(results.filter((r) => r.reserved)).toHaveLength(1);
    expect(results.filter((r) => !r.reserved && r.by === "identifier")).toHaveLength(19);
    await ledger.close();
  });

  it("frees an identifier with a release, so that a new payment under it is reserved", async () => {
    const { ledger } = await open(T0);
    await ledger.release(await attemptOf(ledger, withId("failed", "pay_released_0123456")), "answer failed");
    expect(await ledger.bound("pay_released_0123456")).toBeUndefined();
    expect(await ledger.reserve(withId("retry", "pay_released_0123456"))).toMatchObject({ reserved: true });
    await ledger.close();
  });

  it("keeps an identifier's answer until its own time, past the payment's expiry, then frees the identifier", async () => {
    const { ledger, now } = await open(T0);
    const keepAnswerUntil = now() + 3_600_000;
    await ledger.settleWithAnswer(
      await attemptOf(ledger, withId("kept", "pay_kept_0123456789", { keepAnswerUntil })),
      settlement(),
      answer,
    );
    expect(await ledger.dropExpiredAnswers(now() + 61_000)).toBe(0);
    expect(await ledger.bound("pay_kept_0123456789")).toMatchObject({
      status: "settled",
      answer,
      answerUntil: keepAnswerUntil,
    });
    expect(await ledger.dropExpiredAnswers(keepAnswerUntil + 1)).toBe(1);
    expect(await ledger.bound("pay_kept_0123456789")).toBeUndefined();
    expect(await ledger.reserve(withId("later", "pay_kept_0123456789"))).toMatchObject({ reserved: true });
    expect((await ledger.rows()).map((r) => [r.key, r.status, r.identifier])).toEqual([
      ["kept", "settled", "pay_kept_0123456789"],
      ["later", "verified", "pay_kept_0123456789"],
    ]);
    await ledger.close();
  });

  it("records a payment sent under a bought identifier as not charged, holding neither its key nor the identifier", async () => {
    const { ledger } = await open(T0);
    await ledger.settleWithAnswer(
      await attemptOf(ledger, withId("bought", "pay_bought_012345678")),
      settlement(),
      answer,
    );
    const { deadlineAt: _d, holder: _h, identifier: _i, ...fresh } = reservation("fresh", { transport: "mcp" });
    await ledger.recordUncharged({
      ...fresh,
      identifier: "pay_bought_012345678",
      reason: "its answer was bought already",
    });
    const row = (await ledger.rows()).find((r) => r.key === "fresh");
    expect(row).toMatchObject({
      status: "not_charged",
      identifier: "pay_bought_012345678",
      transport: "mcp",
      hasAnswer: false,
    });
    expect(row?.reason).toBe("its answer was bought already");
    expect(await ledger.bound("pay_bought_012345678")).toMatchObject({ key: "bought" });
    expect(await ledger.reserve(reservation("fresh", { holder: "later" }))).toMatchObject({ reserved: true });
    await ledger.close();
  });
}

/** `lookup`: what a payer asking about its payment is told, by identifier or by transaction, on one network. */
function describeLookup(open: (start: number) => Promise<LedgerFixture>): void {
  const withId = (key: string, identifier: string, overrides: Partial<ReservationRequest> = {}) =>
    reservation(key, { identifier, ...overrides });

  it("finds a settled purchase by its identifier and by its transaction, with its answer, on its network only", async () => {
    const { ledger } = await open(T0);
    await ledger.settleWithAnswer(
      await attemptOf(ledger, withId("paid", "pay_lookup_012345678")),
      settlement("0xtx1"),
      answer,
    );
    const found = {
      status: "settled",
      transaction: "0xtx1",
      payer: "0xpayer",
      amount: 1000n,
      endpoint: "defiTvl",
      answer,
    };
    expect(await ledger.lookup({ identifier: "pay_lookup_012345678" }, "base-sepolia")).toMatchObject({
      ...found,
      identifier: "pay_lookup_012345678",
      transport: "http",
      simulated: false,
      reason: null,
    });
    expect(await ledger.lookup({ transaction: "0xtx1" }, "base-sepolia")).toMatchObject(found);
    expect(await ledger.lookup({ identifier: "pay_lookup_012345678" }, "skale-base-sepolia")).toBeUndefined();
    expect(await ledger.lookup({ transaction: "0xtx1" }, "skale-base-sepolia")).toBeUndefined();
    expect(await ledger.lookup({ identifier: "pay_unknown_0123456789" }, "base-sepolia")).toBeUndefined();
    expect(await ledger.lookup({ transaction: "0xnone" }, "base-sepolia")).toBeUndefined();
    await ledger.close();
  });

  it("tells an open purchase by its deadline, a released one by its reason, and prefers the open one", async () => {
    const { ledger } = await open(T0);
    await ledger.release(await attemptOf(ledger, withId("first", "pay_retried_01234567")), "upstream failed");
    expect(await ledger.lookup({ identifier: "pay_retried_01234567" }, "base-sepolia")).toMatchObject({
      status: "not_charged",
      reason: "upstream failed",
      transaction: null,
    });
    const open2 = withId("second", "pay_retried_01234567", { holder: "h2" });
    await ledger.reserve(open2);
    expect(await ledger.lookup({ identifier: "pay_retried_01234567" }, "base-sepolia")).toMatchObject({
      status: "verified",
      deadlineAt: open2.deadlineAt,
    });
    expect((await ledger.lookup({ identifier: "pay_retried_01234567" }, "base-sepolia"))?.answer).toBeUndefined();
    await ledger.close();
  });

  it("answers a bought identifier with its settled purchase, not with the uncharged payments sent under it since", async () => {
    const { ledger } = await open(T0);
    await ledger.settleWithAnswer(
      await attemptOf(ledger, withId("bought", "pay_bought_lookup_01")),
      settlement("0xtx2"),
      answer,
    );
    const { deadlineAt: _d, holder: _h, identifier: _i, ...fresh } = reservation("again");
    await ledger.recordUncharged({
      ...fresh,
      identifier: "pay_bought_lookup_01",
      reason: "its answer was bought already",
    });
    expect(await ledger.lookup({ identifier: "pay_bought_lookup_01" }, "base-sepolia")).toMatchObject({
      status: "settled",
      transaction: "0xtx2",
    });
    await ledger.close();
  });
}
