/**
 * A `fetch` that pays x402 challenges by itself, for one network (never one whose body names errors in the
 * request's input: that 402 is returned unpaid): on a 402 it picks the offer of
 * its network, in x402 v2 (`PAYMENT-REQUIRED`) when the 402 has one there and in v1 (the body)
 * otherwise, or in the version it was told to use; checks it (known asset, pinned recipient and
 * asset, caps, an optional approval), has its payer sign the payload, sends it in that version's
 * header, retries once, and records the version, receipt and amount of that call. It never pays
 * twice for one call; a second 402 is a `PaymentRejectedError`. A v2 payment names its purchase with
 * x402's `payment-identifier` when the challenge declares it; the paid request is repeated, with the
 * same payment and so the same id, when the service says the payment is in progress (503
 * `payment_in_progress`: a held payment, a settlement whose outcome is not known yet), asks to wait (a
 * 503 with `Retry-After`) or the connection is lost before an answer: the service answers a repeat
 * with the answer already bought, never a second charge.
 */
import { formatUsdc, microAmount } from "./amounts.js";
import { HttpError, PaymentRefusedError, type RefusalReason, rejectionOf } from "./errors.js";
import { NETWORKS, type NetworkChoice, type NetworkInfo, sameAddress } from "./networks.js";
import { type AskedToWait, repeatPaid } from "./paid-repeats.js";
import type { Payer } from "./payers.js";
import { type Challenges, offersOf, readChallenges } from "./x402/challenge.js";
import {
  CHALLENGE_HEADER,
  decodeReceipt,
  encodePayment,
  newPaymentId,
  type Offer,
  offersPaymentIdentifier,
  PAYMENT_HEADERS,
  type PaymentHeaderName,
  type PaymentTerms,
  RECEIPT_HEADERS,
  type Receipt,
  type Requirement,
  termsOf,
  type X402Version,
} from "./x402/types.js";

/** x402-fetch's default per-call cap: 0.10 USDC. */
export const DEFAULT_MAX_PER_CALL = 100_000n;
/** 1 USDC per client session unless told otherwise. */
export const DEFAULT_MAX_PER_SESSION = 1_000_000n;

/** Which x402 version to pay in: `auto` (v2 when the 402 offers it on the network, else v1), or only `v1` or `v2`. */
export type ProtocolChoice = "auto" | "v1" | "v2";

export interface PaymentQuote {
  /** The request being paid for (its body is not readable here). */
  url: string;
  method: string;
  /** The x402 version it would be paid in. */
  version: X402Version;
  /** The requirement as that version offers it (`network` a v1 name or, in v2, a CAIP-2 id). */
  requirement: Requirement;
  /** Micro-USDC. */
  amount: bigint;
}

export interface PaymentRecord {
  /** The x402 version paid in. */
  version: X402Version;
  /** The request header the payment went in: `PAYMENT-SIGNATURE` (v2) or `X-PAYMENT` (v1). */
  headerName: PaymentHeaderName;
  requirement: Requirement;
  /** The price signed, micro-USDC. */
  amount: bigint;
  /** What counts as spent: `amount` when the receipt says success or the outcome is unknown (in progress), else 0. */
  paid: bigint;
  /** The decoded `PAYMENT-RESPONSE` (v2) or `X-PAYMENT-RESPONSE` (v1). */
  receipt?: Receipt;
  /** The header value that was sent (single use: the server refuses it a second time, and in the other version's header). */
  header: string;
  /** The purchase's x402 `payment-identifier`, when the challenge declared it (v2). */
  paymentId?: string;
}

export interface PayingFetchOptions {
  network: NetworkChoice;
  payer: Payer;
  /** Micro-USDC; default 0.10 USDC. */
  maxPerCall?: bigint;
  /** Micro-USDC over the life of this fetch; default 1 USDC. */
  maxPerSession?: bigint;
  /** Recipient and asset to insist on; otherwise the first challenge's are pinned. */
  expect?: { payTo?: string; asset?: string };
  /** Asked before each payment, after every check passed; false refuses it (`declined`). */
  approve?: (quote: PaymentQuote) => boolean | Promise<boolean>;
  /** The x402 version to pay in; default `auto`. */
  protocol?: ProtocolChoice;
  /**
   * How often the paid request is repeated, with the same payment, after a lost connection or a 503 with `Retry-After`
   * other than an in-progress one; default 2. An in-progress answer (503 `payment_in_progress`) is always followed.
   * The waits of one call add up to `maxRetryWaitMs` at most (default 30 s): the answer asking for a longer one is
   * returned as it is.
   */
  paidRetries?: number;
  maxRetryWaitMs?: number;
  fetch?: (input: Request) => Promise<Response>;
}

export interface PayingFetch {
  (input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** The payment made for the call that returned `response`, if any. */
  paymentOf(response: Response): PaymentRecord | undefined;
  /** Micro-USDC spent by this fetch (settled payments, and payments whose outcome is unknown). */
  spent(): bigint;
  readonly network: NetworkChoice;
  readonly protocol: ProtocolChoice;
  readonly maxPerCall: bigint;
  readonly maxPerSession: bigint;
}

function refuse(reason: RefusalReason, message: string, requirement?: Requirement): never {
  throw new PaymentRefusedError(reason, message, requirement);
}

/** The versions to look at, in order of preference. */
const VERSIONS: Record<ProtocolChoice, readonly X402Version[]> = { auto: [2, 1], v2: [2], v1: [1] };

/** Whether an answer says the payment is still in progress for this request (the service's `payment_in_progress`). */
async function inProgress(response: Response): Promise<boolean> {
  if (response.status !== 503) return false;
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { error?: unknown } | undefined;
  return body?.error === "payment_in_progress";
}

/** What a 503 asks, if it asks to come back: after how long (`Retry-After` in seconds), and whether the payment is in progress. */
async function askedToWait(response: Response): Promise<AskedToWait | undefined> {
  const header = response.headers.get("Retry-After");
  const seconds = Number(header);
  if (response.status !== 503 || header === null || header.trim() === "" || !(seconds >= 0)) return undefined;
  return { ms: seconds * 1000, inProgress: await inProgress(response) };
}

function receiptOf(response: Response, version: X402Version): Receipt | undefined {
  const header = response.headers.get(RECEIPT_HEADERS[version]);
  if (!header) return undefined;
  try {
    return decodeReceipt(header);
  } catch {
    return undefined;
  }
}

/** What one paying fetch keeps across its calls: its settings, the pinned recipient and asset, and what it spent. */
interface Session {
  options: PayingFetchOptions;
  info: NetworkInfo;
  send: (request: Request) => Promise<Response>;
  protocol: ProtocolChoice;
  maxPerCall: bigint;
  maxPerSession: bigint;
  pinned: { payTo: string | undefined; asset: string | undefined };
  /** Whether each pin was given (`expect`) rather than taken from the first challenge. */
  expected: { payTo: boolean; asset: boolean };
  spent: bigint;
  /** Reserved against the session cap by the calls being paid. */
  pending: bigint;
  records: WeakMap<Response, PaymentRecord>;
}

export function createPayingFetch(options: PayingFetchOptions): PayingFetch {
  const info = NETWORKS[options.network];
  if (options.payer.family !== info.family)
    throw new TypeError(`a ${options.payer.family} payer cannot pay on ${options.network}`);
  const pinned = { payTo: options.expect?.payTo, asset: options.expect?.asset };
  const session: Session = {
    options,
    info,
    send: options.fetch ?? ((request: Request) => globalThis.fetch(request)),
    protocol: options.protocol ?? "auto",
    maxPerCall: options.maxPerCall ?? DEFAULT_MAX_PER_CALL,
    maxPerSession: options.maxPerSession ?? DEFAULT_MAX_PER_SESSION,
    pinned,
    expected: { payTo: pinned.payTo !== undefined, asset: pinned.asset !== undefined },
    spent: 0n,
    pending: 0n,
    records: new WeakMap(),
  };
  const { send } = session;

  async function payingFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    // The caller brought its own payment: not ours to pay or retry.
    if (Object.values(PAYMENT_HEADERS).some((name) => request.headers.has(name))) return send(request);
    const retry = request.clone();
    const first = await send(request);
    if (first.status !== 402 || (await namesInputErrors(first))) return first;
    const offer = choose(session, await readChallenges(first), request.url);
    return pay(session, offer, request, retry);
  }

  return Object.assign(payingFetch, {
    paymentOf: (response: Response) => session.records.get(response),
    spent: () => session.spent,
    network: options.network,
    protocol: session.protocol,
    maxPerCall: session.maxPerCall,
    maxPerSession: session.maxPerSession,
  });
}

/**
 * Whether a challenge names errors in the request's input (the service's 402 body `errors`): paid, the same request
 * would be refused with a 400, so nothing is signed and the 402 is the answer.
 */
async function namesInputErrors(challenge: Response): Promise<boolean> {
  const body = (await challenge
    .clone()
    .json()
    .catch(() => undefined)) as { errors?: unknown } | undefined;
  return Array.isArray(body?.errors) && body.errors.length > 0;
}

/** The offer of our network in the first version that has one (v2 before v1 unless told otherwise). */
function choose({ protocol, info, options }: Session, challenges: Challenges, url: string): Offer {
  const versions = VERSIONS[protocol];
  if (!versions.some((version) => challenges[`v${version}`])) {
    if (protocol === "auto")
      refuse(
        "invalid_challenge",
        `${url} answered 402 without an x402 challenge (no readable ${CHALLENGE_HEADER} header, no v1 body)`,
      );
    refuse("version_not_offered", `${url} answered 402 without an x402 ${protocol} challenge`);
  }
  const offers = offersOf(challenges, versions);
  const ours = offers.find(({ version, requirement }) => {
    const names: readonly string[] = version === 1 ? info.networks : info.caip2;
    return requirement.scheme === "exact" && names.includes(requirement.network);
  });
  if (!ours)
    refuse(
      "network_not_offered",
      `${url} offers no exact payment on ${options.network} (${offers.map((o) => o.requirement.network).join(", ")})`,
    );
  return ours;
}

/** The offer's terms, checked against the pins (pinning them if first) and the caps, and their amount. */
function accept(session: Session, { requirement }: Offer): { terms: PaymentTerms; amount: bigint } {
  const { info, pinned, expected, options, maxPerCall, maxPerSession, spent } = session;
  const terms = termsOf(requirement);
  const same = (a: string, b: string) => sameAddress(info.family, a, b);
  if (pinned.asset !== undefined && !same(pinned.asset, requirement.asset))
    refuse(
      expected.asset ? "asset_unexpected" : "asset_changed",
      `asset ${requirement.asset} is not ${pinned.asset}`,
      requirement,
    );
  if (pinned.asset === undefined && !info.assets.some((asset) => same(asset, requirement.asset)))
    refuse("asset_unexpected", `asset ${requirement.asset} is not USDC on ${options.network}`, requirement);
  if (pinned.payTo !== undefined && !same(pinned.payTo, requirement.payTo))
    refuse(
      "pay_to_changed",
      `recipient ${requirement.payTo} is not the ${expected.payTo ? "expected" : "pinned"} ${pinned.payTo}`,
      requirement,
    );
  pinned.asset ??= requirement.asset;
  pinned.payTo ??= requirement.payTo;

  let amount: bigint;
  try {
    amount = microAmount(terms.amount);
  } catch {
    refuse("invalid_challenge", `the amount "${terms.amount}" is not an integer amount`, requirement);
  }
  if (amount > maxPerCall)
    refuse(
      "cap_per_call",
      `price ${formatUsdc(amount)} USDC is above the per-call cap of ${formatUsdc(maxPerCall)} USDC`,
      requirement,
    );
  if (spent + session.pending + amount > maxPerSession)
    refuse(
      "cap_per_session",
      `paying ${formatUsdc(amount)} USDC would exceed the session cap of ${formatUsdc(maxPerSession)} USDC (spent ${formatUsdc(spent)})`,
      requirement,
    );
  return { terms, amount };
}

/**
 * Pays `offer` for `request`: checks and approval, the signed payment sent on `retry` (the unsent copy of the
 * request), and the answer's receipt recorded and counted against the session.
 */
async function pay(session: Session, offer: Offer, request: Request, retry: Request): Promise<Response> {
  const { options } = session;
  const { version, requirement } = offer;
  const headerName = PAYMENT_HEADERS[version];
  const { terms, amount } = accept(session, offer);
  session.pending += amount; // reserved against the session cap while this call is being paid
  let counted = false;
  try {
    if (
      options.approve &&
      !(await options.approve({ url: request.url, method: request.method, version, requirement, amount }))
    )
      refuse("declined", `payment of ${formatUsdc(amount)} USDC on ${requirement.network} declined`, requirement);
    const paymentId = offersPaymentIdentifier(offer) ? newPaymentId() : undefined;
    const header = encodePayment(offer, await options.payer.sign(terms), paymentId);
    retry.headers.set(headerName, header);
    const second = await repeatPaid(() => session.send(retry.clone()), {
      retries: options.paidRetries ?? 2,
      maxWaitMs: options.maxRetryWaitMs ?? 30_000,
      asked: askedToWait,
      discard: (response) => response.body?.cancel() ?? Promise.resolve(),
    });
    if (second.status === 402) {
      counted = true; // refused: nothing charged
      const challenges = await readChallenges(second);
      throw (
        rejectionOf(challenges, requirement, request.url, version) ??
        new HttpError(402, undefined, request.url, challenges.body)
      );
    }
    const receipt = receiptOf(second, version);
    // Settled, delivered without a receipt, or still in progress (outcome unknown: counted, so the cap stays a bound).
    const paid = receipt?.success || (second.ok && !receipt) || (await inProgress(second)) ? amount : 0n;
    session.spent += paid;
    counted = true;
    session.records.set(second, {
      version,
      headerName,
      requirement,
      amount,
      paid,
      header,
      ...(receipt ? { receipt } : {}),
      ...(paymentId ? { paymentId } : {}),
    });
    return second;
  } finally {
    session.pending -= amount;
    // The request failed in flight after the payment was sent: the outcome is unknown, so it counts.
    if (!counted && retry.headers.has(headerName)) session.spent += amount;
  }
}
