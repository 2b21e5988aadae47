/**
 * `LedgerStore.settlements()` as both stores read it: one statement, the same in either dialect,
 * its rows into `SettlementRecord`s.
 */
import { pendingPayment, type Row, truthy } from "./rows.js";
import type { SettlementRecord } from "./store.js";

const SETTLEMENTS = `SELECT id, payment_key, status, network, payer, amount, payload, settlement_tx, simulated, expires_at, created_at
  FROM payments WHERE status IN ('settled', 'settling') ORDER BY id`;

/** Every settled and settling payment, oldest first, read with `all`. */
export async function readSettlements(all: (sql: string) => Promise<Row[]>): Promise<SettlementRecord[]> {
  return (await all(SETTLEMENTS)).map((r) => ({
    ...pendingPayment(r),
    status: r.status as SettlementRecord["status"],
    transaction: (r.settlement_tx as string | null) ?? null,
    simulated: truthy(r.simulated),
  }));
}
