/**
 * x402's `payment-identifier` extension (`specs/extensions/payment_identifier.md`): a v2 client names
 * its purchase with an id it chooses, and repeats the id, with the same payment or a new one, on
 * every retry of that purchase. The challenge declares the extension (`required` as the operator
 * set it); the payment echoes it with `info.id`. Pure: what the id means for a payment is the gate's.
 */

export const PAYMENT_IDENTIFIER = "payment-identifier";

/** Where the id sits in a v2 payment, as a 400 names it. */
export const IDENTIFIER_FIELD = `extensions["${PAYMENT_IDENTIFIER}"].info.id`;

/** The specification's id: 16 to 128 letters, digits, `-` or `_`. */
const ID_PATTERN = "^[A-Za-z0-9_-]{16,128}$";
const ID = new RegExp(ID_PATTERN);

/** The extension as a challenge declares it. */
export interface PaymentIdentifierDeclaration {
  info: { required: boolean };
  schema: Record<string, unknown>;
}

export function paymentIdentifierDeclaration(required: boolean): PaymentIdentifierDeclaration {
  return {
    info: { required },
    schema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        required: { type: "boolean" },
        id: { type: "string", minLength: 16, maxLength: 128, pattern: ID_PATTERN },
      },
      required: ["required"],
    },
  };
}

export type IdentifierRead =
  | { kind: "none" }
  | { kind: "id"; id: string }
  /** The payment carries the extension with an id that is not one: a 400 naming the field. */
  | { kind: "invalid"; detail: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The id a decoded v2 payment carries. An extension without `info.id` carries none (a client may echo the declaration
 * unchanged); an `id` that is not a string of the specification's form is invalid, never ignored, so that a client's
 * retry is not charged again for a typo in its key.
 */
export function readPaymentIdentifier(payment: Record<string, unknown>): IdentifierRead {
  const extension = isRecord(payment.extensions) ? payment.extensions[PAYMENT_IDENTIFIER] : undefined;
  if (extension === undefined) return { kind: "none" };
  const info = isRecord(extension) ? extension.info : undefined;
  if (!isRecord(info))
    return { kind: "invalid", detail: `extensions["${PAYMENT_IDENTIFIER}"] must be an object with an info object` };
  if (info.id === undefined) return { kind: "none" };
  if (typeof info.id !== "string" || !ID.test(info.id))
    return { kind: "invalid", detail: "must be 16 to 128 characters, each a letter, a digit, '-' or '_'" };
  return { kind: "id", id: info.id };
}
