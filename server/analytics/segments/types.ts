/**
 * The handler contract. One handler per operation, shared by the three prefixes and the legacy
 * GET. A handler fetches through the providers, applies the pure rules and returns the data with
 * the rule engine's baseline signal; the app adds the insight, the envelope and the payment.
 */
import type { Clock } from "../clock.js";
import type { DataOf, OperationName, RequestOf, SignalOf } from "../contract/operation-types.js";
import type { Providers } from "../providers/index.js";

export interface SegmentContext {
  /** Every role behind the cache: handlers read without knowing how long a read is kept. */
  providers: Providers;
  /** Figures computed from many provider reads, behind the same cache (derived.ts). */
  derived: DerivedReads;
  clock: Clock;
  /** The prefix the operation is served under (`""`, `/base`, `/skale`): an answer that names other endpoints names them there. */
  prefix: string;
}

/** One ranked candidate of the top-wallets list, before sorting. */
export type TraderRow = Omit<DataOf<"tradersTopWallets">["wallets"][number], "rank">;
export type TraderPeriod = DataOf<"tradersTopWallets">["period"];

/**
 * Reads computed from many provider reads, too costly to compute per request: each has its cache
 * key and lifetime beside the providers' (derived.ts), and handlers call them as they call providers.
 */
export interface DerivedReads {
  /** Every active trader of the period with its realized figures and its 30-day archetype and copy score. */
  traderRows(period: TraderPeriod): Promise<TraderRow[]>;
}

/** What a handler produces. */
export interface Outcome<N extends OperationName> {
  data: DataOf<N>;

  /** Lowercase ids of the providers actually used (each provider's `source`). */
  sources: string[];

  /** The rule engine's signal and confidence: final on 206, the model's starting point otherwise. */
  baseline: { signal: SignalOf<N>; confidence: number };

  /** One or two sentences citing numbers from `data`: the embedded insight writer's answer. */
  brief: string;
}

/**
 * A handler receives the validated request (defaults applied by the validator; legacy GET query
 * and path parameters already mapped onto the POST body's field names) that passed its operation's
 * input rule (input-rules.ts).
 */
export type Handler<N extends OperationName> = (input: RequestOf<N>, ctx: SegmentContext) => Promise<Outcome<N>>;

/** A segment's handlers, keyed by operation name. */
export type SegmentHandlers<N extends OperationName> = { [K in N]: Handler<K> };

/** One handler for every operation of the contract: a missing one is a type error, not a start-up failure. */
export type HandlerMap = { [N in OperationName]: Handler<N> };

/**
 * A handler of some operation, as the paid route calls it: with the input the validator let
 * through (typed by the route's operation only at run time), answering that operation's outcome.
 * Every `Handler<N>` is one.
 */
export type OperationHandler = (input: never, ctx: SegmentContext) => Promise<Outcome<OperationName>>;
