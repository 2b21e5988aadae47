/**
 * The payment ledger: every payment the service verified, with its fate, its settlement and its
 * split. The store itself enforces that one payment (an EVM nonce, a Solana transaction) is
 * reserved at most once while it is verified or settled, so two concurrent requests carrying the
 * same payment cannot both be served, even from two processes sharing one database.
 */
export type PaymentStatus = "verified" | "settled" | "failed" | "not_charged";

export interface ReservationRequest {
  /** Replay key, `<network>:<nonce or transaction hash>`. */
  key: string;
  network: string;
  payer: string;
  /** Micro-USDC. */
  amount: bigint;
  endpoint: string;
  requestId: string;
}

export interface SettledPayment {
  transaction: string;
  simulated: boolean;
  split: { service: { address: string; amount: bigint }; treasury: { address: string; amount: bigint } };
}

export interface LedgerRow {
  id: number;
  key: string;
  network: string;
  payer: string;
  amount: bigint;
  endpoint: string;
  status: PaymentStatus;
  transaction: string | null;
  simulated: boolean;
  reason: string | null;
}

export interface LedgerTotals {
  byNetwork: { network: string; payments: number; amount: bigint }[];
  byEndpoint: { endpoint: string; payments: number; amount: bigint }[];
  byAccount: { account: "service" | "treasury"; network: string; address: string; amount: bigint }[];
  byStatus: { status: PaymentStatus; payments: number }[];
}

export interface LedgerStore {
  /** Records a verified payment and reserves its key; false when the key is already reserved (a replay). */
  reserve(request: ReservationRequest): Promise<boolean>;
  /** The payment settled: status, transaction and the two split rows, in one transaction. */
  settled(key: string, settlement: SettledPayment): Promise<void>;
  /** Settlement refused the payment: recorded as failed, key freed. */
  failed(key: string, reason: string): Promise<void>;
  /** The answer failed before settlement: recorded as not charged, key freed for a retry. */
  notCharged(key: string, reason: string): Promise<void>;
  rows(): Promise<LedgerRow[]>;
  totals(): Promise<LedgerTotals>;
  close(): void;
}
