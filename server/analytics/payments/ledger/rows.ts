/**
 * Rows as both ledger stores read them, into the store's types. SQLite hands back numbers or
 * bigints and 0/1, PostgreSQL strings for BIGINT and NUMERIC and booleans: every field goes through
 * `BigInt`, `Number` or `truthy`, which read either.
 */
import type { Refusal, Stage } from "./stages.js";
import type {
  ExistingPayment,
  LedgerRow,
  LedgerTotals,
  Move,
  PaymentQuery,
  PaymentRecord,
  PaymentStatus,
  PendingPayment,
} from "./store.js";

export type Row = Record<string, unknown>;

export const truthy = (value: unknown) => value === true || Number(value) === 1;

/** A held reservation with its answer and settlement (columns of `payments` and the answer's `answer_status`, `answer_body`). */
export function existingPayment(row: Row): ExistingPayment {
  return {
    key: row.payment_key as string,
    status: row.status as ExistingPayment["status"],
    fingerprint: row.fingerprint as string,
    expiresAt: Number(row.expires_at),
    deadlineAt: Number(row.deadline_at),
    payer: row.payer as string,
    network: row.network as string,
    amount: BigInt(row.amount as bigint),
    ...(row.answer_body == null
      ? {}
      : {
          answer: { status: Number(row.answer_status), body: row.answer_body as string },
          answerUntil: Number(row.answer_until),
        }),
    ...(row.settlement_tx == null
      ? {}
      : { settlement: { transaction: row.settlement_tx as string, simulated: truthy(row.simulated) } }),
  };
}

/** A refused move, from the row of its refusal's read (conditions.ts `refusalOf`), or its absence. */
export function refusal(row: Row | undefined): Move {
  if (!row) return { moved: false, refusedBy: "no such payment" };
  return {
    moved: false,
    refusedBy: row.refused_by as Exclude<Refusal, "no such payment">,
    stage: row.status as Stage,
  };
}

export function pendingPayment(r: Row): PendingPayment {
  return {
    entry: Number(r.id),
    key: r.payment_key as string,
    status: r.status as PendingPayment["status"],
    network: r.network as string,
    payer: r.payer as string,
    amount: BigInt(r.amount as bigint),
    payload: r.payload as string,
    expiresAt: Number(r.expires_at),
    createdAt: Number(r.created_at),
  };
}

/**
 * The lookup's statement in either store (named parameters `:value`, `:network`): by identifier, the open payment
 * first, then the latest settled, then the latest other; by transaction, the latest payment settled as it.
 */
export function lookupText(by: "identifier" | "transaction"): string {
  const column = by === "identifier" ? "payment_identifier" : "settlement_tx";
  return `SELECT p.status, p.network, p.payer, p.amount, p.endpoint, p.transport, p.payment_identifier, p.settlement_tx,
                 p.simulated, p.reason, p.deadline_at, a.status AS answer_status, a.body AS answer_body
          FROM payments p LEFT JOIN answers a ON a.payment_id = p.id
          WHERE p.${column} = :value AND p.network = :network
          ORDER BY CASE WHEN p.status IN ('verified', 'settling') THEN 0 WHEN p.status = 'settled' THEN 1 ELSE 2 END, p.id DESC
          LIMIT 1`;
}

/** The lookup's statement and parameters for a query. */
export const lookupOf = (query: PaymentQuery, network: string) =>
  "identifier" in query
    ? { by: "identifier" as const, params: { value: query.identifier, network } }
    : { by: "transaction" as const, params: { value: query.transaction, network } };

export function paymentRecord(r: Row): PaymentRecord {
  return {
    status: r.status as PaymentStatus,
    network: r.network as string,
    payer: r.payer as string,
    amount: BigInt(r.amount as bigint),
    endpoint: r.endpoint as string,
    transport: r.transport as PaymentRecord["transport"],
    identifier: (r.payment_identifier as string | null) ?? null,
    transaction: (r.settlement_tx as string | null) ?? null,
    simulated: truthy(r.simulated),
    reason: (r.reason as string | null) ?? null,
    deadlineAt: Number(r.deadline_at),
    ...(r.answer_body == null ? {} : { answer: { status: Number(r.answer_status), body: r.answer_body as string } }),
  };
}

export function ledgerRow(r: Row): LedgerRow {
  return {
    id: Number(r.id),
    key: r.payment_key as string,
    network: r.network as string,
    payer: r.payer as string,
    amount: BigInt(r.amount as bigint),
    endpoint: r.endpoint as string,
    requestId: r.request_id as string,
    transport: r.transport as LedgerRow["transport"],
    identifier: (r.payment_identifier as string | null) ?? null,
    status: r.status as PaymentStatus,
    transaction: (r.settlement_tx as string | null) ?? null,
    simulated: truthy(r.simulated),
    reason: (r.reason as string | null) ?? null,
    recovery: (r.recovery as string | null) ?? null,
    hasAnswer: truthy(r.has_answer),
  };
}

/** The totals' queries, in each store's dialect; `order` is how text sorts bytewise there. */
export function totalsQueries(order: string) {
  return {
    byNetwork: `SELECT network, COUNT(*) AS n, SUM(amount) AS total FROM payments WHERE status = 'settled' GROUP BY network ORDER BY network ${order}`,
    byEndpoint: `SELECT endpoint, COUNT(*) AS n, SUM(amount) AS total FROM payments WHERE status = 'settled'
                 GROUP BY endpoint ORDER BY total DESC, endpoint ${order}`,
    byAccount: `SELECT s.account, p.network, s.address, SUM(s.amount) AS total FROM splits s JOIN payments p ON p.id = s.payment_id
                GROUP BY s.account, p.network, s.address ORDER BY s.account ${order}, p.network ${order}`,
    byStatus: `SELECT status, COUNT(*) AS n FROM payments GROUP BY status ORDER BY status ${order}`,
    byRecovery: `SELECT recovery, status, COUNT(*) AS n FROM payments WHERE recovery IS NOT NULL
                 GROUP BY recovery, status ORDER BY recovery ${order}, status ${order}`,
  } as const;
}

/** The totals from the rows of `totalsQueries`, run by `all`. */
export async function ledgerTotals(
  queries: ReturnType<typeof totalsQueries>,
  all: (sql: string) => Promise<Row[]>,
): Promise<LedgerTotals> {
  const [byNetwork, byEndpoint, byAccount, byStatus, byRecovery] = await Promise.all([
    all(queries.byNetwork),
    all(queries.byEndpoint),
    all(queries.byAccount),
    all(queries.byStatus),
    all(queries.byRecovery),
  ]);
  return {
    byNetwork: byNetwork.map((r) => ({
      network: r.network as string,
      payments: Number(r.n),
      amount: BigInt(r.total as bigint),
    })),
    byEndpoint: byEndpoint.map((r) => ({
      endpoint: r.endpoint as string,
      payments: Number(r.n),
      amount: BigInt(r.total as bigint),
    })),
    byAccount: byAccount.map((r) => ({
      account: r.account as "service" | "treasury",
      network: r.network as string,
      address: r.address as string,
      amount: BigInt(r.total as bigint),
    })),
    byStatus: byStatus.map((r) => ({ status: r.status as PaymentStatus, payments: Number(r.n) })),
    byRecovery: byRecovery.map((r) => ({
      recovery: r.recovery as string,
      status: r.status as PaymentStatus,
      payments: Number(r.n),
    })),
  };
}
