/**
 * Types of the paid operations, derived from the generated contract types. An operation is named
 * by its operationId without the prefix (`defiTvl`); the legacy GETs share their POST twin's name.
 */
import type { operations } from "../../../generated/types/analytics.js";

type RootId = Extract<keyof operations, `Solana_${string}`>;
/** The free payment lookups of each prefix (spec/analytics/payments.tsp), named like its paid operations. */
export type PaymentLookupName = "paymentStatus" | "paymentStatusByTransaction";
type NameOf<Id> = Id extends `Solana_${infer Name}`
  ? Name extends `${string}Legacy` | PaymentLookupName
    ? never
    : Name
  : never;

/** `defiTvl`, `lpPools`, ... (28 names). */
export type OperationName = NameOf<RootId>;

type Root<N extends OperationName> = operations[`Solana_${N}`];

/** The request body as a caller may send it (optional fields may be absent). */
export type RequestOf<N extends OperationName> = NonNullable<Root<N>["requestBody"]>["content"]["application/json"];

/** The 200 envelope. */
export type EnvelopeOf<N extends OperationName> = Root<N>["responses"][200]["content"]["application/json"];

/** The operation's `data`. */
export type DataOf<N extends OperationName> = EnvelopeOf<N>["data"];

/** The operation's signal vocabulary. */
export type SignalOf<N extends OperationName> = EnvelopeOf<N>["signal"];

/**
 * What a handler receives: the validator has already applied every default the contract declares,
 * so the listed fields are present.
 */
export type Validated<T, Defaulted extends keyof T = never> = T & Required<Pick<T, Defaulted>>;
