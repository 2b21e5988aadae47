/**
 * The payment ledger: every payment the service verified, the stage it has reached, its answer
 * while a retry may still ask for it, its settlement and its split. The stages and every move between
 * them are the table of stages.ts; each move is one method here and one statement in each store, and
 * a move refused is told by name (`Move`), as TigerBeetle names every refusal of a transfer.
 *
 * The store itself enforces the rules (a UNIQUE reservation key and conditional transitions), never
 * a read followed by a write in the application: two requests carrying one payment cannot both be
 * served, a stage is left only from the stage it was in, and a payment released by recovery can no
 * longer be settled by a request that was slower than its deadline.
 *
 * A reservation names its ledger entry, and every later write finds the payment by that entry, never
 * by its key alone (`abandon`, for an attempt that never learned its entry, also names the attempt's
 * token): once recovery released an entry, the same payment reserved again is a new entry that a late
 * write of the first request cannot move. The request's own later writes also name the attempt
 * that made the reservation (`Attempt`): on PostgreSQL a reservation is committed without waiting for
 * its WAL flush (the next commit of the payment flushes it, before any money moves), and one lost
 * with a database crash can leave its entry number to the next payment reserved, which the first
 * request, still running, must not move.
 */
import type { OpenStage, Refusal, Stage } from "./stages.js";

export type PaymentStatus = Stage;

/** The transports a paid call comes by. */
export type Transport = "http" | "mcp" | "a2a";

export interface ReservationRequest {
  /** Replay key: `<network>:<authorizer>:<nonce>` (EVM) or `<network>:<sha256 of the transaction's message, hex>` (Solana). */
  key: string;
  network: string;
  payer: string;
  /** Micro-USDC. */
  amount: bigint;
  endpoint: string;
  requestId: string;
  /** Hash of what was asked (operation, prefix, normalized input): a retry must ask the same. */
  fingerprint: string;
  /** The payload as the client signed it (JSON): what settlement and recovery need. */
  payload: string;
  /** Epoch ms by which the answer must reach `settling` or `settled`; past it, recovery releases the payment. */
  deadlineAt: number;
  /** Epoch ms until which the payment is valid, so its stored answer may be asked for again. */
  expiresAt: number;
  /** How the call came: an HTTP request or an MCP tool call (the stages are the same). */
  transport: Transport;
  /**
   * A random token of this attempt at the reservation, shared by no other request (unlike the
   * request id, which a client may send): an attempt that never learned whether its reservation
   * committed abandons it by this token (`abandon`).
   */
  holder: string;
  /**
   * The payment's x402 `payment-identifier`, if it came with one: bound to this payment (so to its payer and request)
   * while the payment is open or its answer is kept, so that a retry under the id finds it (`bound`) whatever payment
   * it carries; a release frees it with the key.
   */
  identifier?: string;
  /** Epoch ms until which the answer is kept for a retry, when later than `expiresAt` (an identifier's retention). */
  keepAnswerUntil?: number;
}

/** A payment that arrived under an identifier whose answer was already bought: recorded, never reserved nor settled. */
export interface UnchargedPayment
  extends Omit<ReservationRequest, "deadlineAt" | "holder" | "keepAnswerUntil" | "identifier"> {
  identifier: string;
  /** Why it was not charged, for the record. */
  reason: string;
}

/** An answer as it was sent: status and the exact body bytes. */
export interface StoredAnswer {
  status: number;
  body: string;
}

/** What the ledger holds under a key that is already reserved. */
export interface ExistingPayment {
  /** The payment's replay key. */
  key: string;
  status: OpenStage | "settled";
  fingerprint: string;
  expiresAt: number;
  /**
   * While the payment is open: epoch ms by which its request must have moved it (its answer's deadline, or the time its
   * settlement was to be done by), after which recovery resolves it.
   */
  deadlineAt: number;
  /** Present once the payment reached `settling` or `settled`, until `answerUntil` has passed. */
  answer?: StoredAnswer;
  /** With `answer`: epoch ms until which it is kept (`expiresAt`, or later for a payment with an identifier). */
  answerUntil?: number;
  /** Present once settled. */
  settlement?: { transaction: string; simulated: boolean };
  payer: string;
  network: string;
  /** Atomic USDC amount. */
  amount: bigint;
}

/** `entry`: the ledger's own id of the reservation, which every later write names. */
/** `by`: what made the reservation conflict, the payment's key or its identifier (bound to another payment). */
export type Reservation =
  | { reserved: true; entry: number }
  | { reserved: false; existing: ExistingPayment; by: "key" | "identifier" };

/** A reservation as the request that made it names it: its entry and the attempt's `holder` token. */
export interface Attempt {
  entry: number;
  holder: string;
}

export interface Split {
  service: { address: string; amount: bigint };
  treasury: { address: string; amount: bigint };
}

export interface SettledPayment {
  transaction: string;
  simulated: boolean;
  split: Split;
}

/**
 * A payment whose process may have died: `verified` past its answer's deadline, or `settling` past the time
 * its settlement was to be done by (or the later time recovery postponed it to).
 */
export interface PendingPayment {
  entry: number;
  key: string;
  status: OpenStage;
  network: string;
  payer: string;
  amount: bigint;
  payload: string;
  expiresAt: number;
  createdAt: number;
}

export interface LedgerRow {
  id: number;
  key: string;
  network: string;
  payer: string;
  amount: bigint;
  endpoint: string;
  /** The request that made the reservation. */
  requestId: string;
  transport: Transport;
  /** The payment's x402 `payment-identifier`, if it came with one. */
  identifier: string | null;
  status: PaymentStatus;
  transaction: string | null;
  simulated: boolean;
  reason: string | null;
  /** What recovery did to this payment, when it had to. */
  recovery: string | null;
  hasAnswer: boolean;
}

/** A payment the ledger holds as charged or being charged, with what reconciliation asks its backend about. */
export interface SettlementRecord {
  entry: number;
  key: string;
  status: "settled" | "settling";
  network: string;
  payer: string;
  amount: bigint;
  /** The payload as the client signed it (JSON). */
  payload: string;
  /** Present once settled. */
  transaction: string | null;
  simulated: boolean;
  expiresAt: number;
  createdAt: number;
}

/** How a payer names a payment it asks about: the purchase's x402 `payment-identifier`, or its settlement's transaction. */
export type PaymentQuery = { identifier: string } | { transaction: string };

/** A payment as its payer asks about it (`lookup`): the stage it is in and what it came to, never its payload. */
export interface PaymentRecord {
  status: PaymentStatus;
  network: string;
  payer: string;
  /** Atomic USDC amount. */
  amount: bigint;
  /** The operation paid for. */
  endpoint: string;
  transport: Transport;
  identifier: string | null;
  transaction: string | null;
  simulated: boolean;
  /** Why it was not charged (released, refused). */
  reason: string | null;
  /** While open: epoch ms by which its request must have moved it, after which recovery resolves it. */
  deadlineAt: number;
  /** The answer as it was sent, while it is kept. */
  answer?: StoredAnswer;
}

export interface LedgerTotals {
  byNetwork: { network: string; payments: number; amount: bigint }[];
  byEndpoint: { endpoint: string; payments: number; amount: bigint }[];
  byAccount: { account: "service" | "treasury"; network: string; address: string; amount: bigint }[];
  byStatus: { status: PaymentStatus; payments: number }[];
  /** Payments recovery resolved, by what it did. */
  byRecovery: { recovery: string; status: PaymentStatus; payments: number }[];
}

/**
 * What a move came to: made by this call, or refused, with the name of what refused it (`Refusal`, stages.ts) and,
 * when the payment exists, the stage it is in now.
 */
export type Move =
  | { moved: true }
  | { moved: false; refusedBy: "no such payment" }
  | { moved: false; refusedBy: Exclude<Refusal, "no such payment">; stage: Stage };

/**
 * One method per transition of stages.ts (its name); each move says whether this call made it, or what refused it:
 * the payment was not in a stage the move leaves, or a guard failed (another attempt's entry, a deadline).
 */
export interface LedgerStore {
  /** Records a verified payment and reserves its key; when the key is held, says by what. */
  reserve(request: ReservationRequest): Promise<Reservation>;
  /** What holds `key` now, if anything: a retry's stored answer, read without reserving. */
  held(key: string): Promise<ExistingPayment | undefined>;
  /** The payment `identifier` is bound to now, if any: open, or settled with its answer kept. */
  bound(identifier: string): Promise<ExistingPayment | undefined>;
  /** Records, as `not_charged`, a payment sent under an identifier whose answer was bought already; holds no key. */
  recordUncharged(payment: UnchargedPayment): Promise<void>;
  /** `verified` → `settling`, the answer stored, before an outside settlement starts; until `settleBy` recovery leaves it. */
  beginSettling(attempt: Attempt, answer: StoredAnswer, settleBy: number): Promise<Move>;
  /** `verified` → `settled` with the answer and the split in one commit, when settlement has no outside effect. */
  settleWithAnswer(attempt: Attempt, settlement: SettledPayment, answer: StoredAnswer): Promise<Move>;
  /** `settling` → `settled` with the transaction and the split, once the backend reported the money moved. */
  confirmSettlement(attempt: Attempt, settlement: SettledPayment): Promise<Move>;
  /** `verified` or `settling` → `not_charged`: no answer can be delivered; the key is freed, the answer dropped. */
  release(attempt: Attempt, reason: string): Promise<Move>;
  /** `verified` or `settling` → `failed`: the settlement refused the payment; the key is freed, the answer dropped. */
  refuse(attempt: Attempt, reason: string): Promise<Move>;
  /**
   * The `verified` reservation of `key` made by the attempt `holder`, if it committed, → `not_charged` and the key
   * freed: for an attempt whose reservation's outcome was lost with the database's reply, and which so never learned
   * its entry. Rows older than the token have none, and no holder frees them.
   */
  abandon(key: string, holder: string, reason: string): Promise<Move>;
  /** Recovery: `verified` past its deadline → `not_charged` (no answer was ready in time). */
  expire(entry: number): Promise<Move>;
  /** Recovery: `settling` past its deadline → `settled`, the chain showing the money moved. */
  confirmOnChain(entry: number, settlement: SettledPayment): Promise<Move>;
  /** Recovery: `settling` past its deadline → `not_charged`, the chain showing it never moved and never can. */
  voidOnChain(entry: number, reason: string): Promise<Move>;
  /** Recovery: a `settling` payment whose outcome is still open, looked at again no sooner than `retryAt`. */
  postpone(entry: number, retryAt: number, why: string): Promise<Move>;
  /** Payments past their deadline in `verified` or `settling`, the earliest deadline first. */
  pending(now: number, limit: number): Promise<PendingPayment[]>;
  /** Drops stored answers past the time they are kept for, and frees their identifiers; returns how many. */
  dropExpiredAnswers(now: number): Promise<number>;
  /**
   * The payment `query` names on `network`, for a payer asking what became of it: under an identifier, the open one
   * first (the identifier's purchase in progress), then the latest settled, then the latest released or refused.
   */
  lookup(query: PaymentQuery, network: string): Promise<PaymentRecord | undefined>;
  rows(): Promise<LedgerRow[]>;
  totals(): Promise<LedgerTotals>;
  /** Resolves when the store answers a read now (`GET /readyz` asks); gives up when `signal` aborts. */
  ping(signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
  /** Every `settled` and `settling` payment, oldest first: what `npm run ledger -- reconcile` compares with the chain. */
  settlements(): Promise<SettlementRecord[]>;
}
