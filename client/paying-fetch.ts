/**
 * A `fetch` that pays x402 v1 challenges by itself, for one network: on a 402 it picks the
 * `accepts` entry of its network, checks it (known asset, pinned recipient and asset, caps, an
 * optional approval), signs with its payer, retries once, and records the receipt and amount of
 * that call. It never pays twice for one call; a second 402 is a `PaymentRejectedError`.
 */
import { formatUsdc, microAmount } from "./amounts.js";
import { HttpError, isChallenge, PaymentRefusedError, PaymentRejectedError, type RefusalReason } from "./errors.js";
import { NETWORKS, type NetworkChoice, sameAddress } from "./networks.js";
import type { Payer } from "./payers.js";
import { decodeReceipt, type PaymentRequiredBody, type PaymentRequirements, type SettlementReceipt } from "./x402/types.js";

/** x402-fetch's default per-call cap: 0.10 USDC. */
export const DEFAULT_MAX_PER_CALL = 100_000n;
/** 1 USDC per client session unless told otherwise. */
export const DEFAULT_MAX_PER_SESSION = 1_000_000n;

export interface PaymentQuote {
  /** The request being paid for (its body is not readable here). */
  url: string;
  method: string;
  requirement: PaymentRequirements;
  /** Micro-USDC. */
  amount: bigint;
}

export interface PaymentRecord {
  requirement: PaymentRequirements;
  /** The price signed, micro-USDC. */
  amount: bigint;
  /** What counts as spent: `amount` when the receipt says success, else 0. */
  paid: bigint;
  receipt?: SettlementReceipt;
  /** The `X-PAYMENT` header that was sent (single use: the server refuses it a second time). */
  header: string;
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
  fetch?: (input: Request) => Promise<Response>;
}

export interface PayingFetch {
  (input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** The payment made for the call that returned `response`, if any. */
  paymentOf(response: Response): PaymentRecord | undefined;
  /** Micro-USDC spent by this fetch (settled payments, and payments whose outcome is unknown). */
  spent(): bigint;
  readonly network: NetworkChoice;
  readonly maxPerCall: bigint;
  readonly maxPerSession: bigint;
}

function refuse(reason: RefusalReason, message: string, requirement?: PaymentRequirements): never {
  throw new PaymentRefusedError(reason, message, requirement);
}

async function challengeOf(response: Response): Promise<PaymentRequiredBody> {
  const body: unknown = await response.json().catch(() => undefined);
  if (!isChallenge(body) || body.x402Version !== 1) refuse("invalid_challenge", `${response.url} answered 402 without an x402 v1 body`);
  return body;
}

function receiptOf(response: Response): SettlementReceipt | undefined {
  const header = response.headers.get("X-PAYMENT-RESPONSE");
  if (!header) return undefined;
  try {
    return decodeReceipt(header);
  } catch {
    return undefined;
  }
}

export function createPayingFetch(options: PayingFetchOptions): PayingFetch {
  const info = NETWORKS[options.network];
  if (options.payer.family !== info.family) throw new TypeError(`a ${options.payer.family} payer cannot pay on ${options.network}`);
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const maxPerCall = options.maxPerCall ?? DEFAULT_MAX_PER_CALL;
  const maxPerSession = options.maxPerSession ?? DEFAULT_MAX_PER_SESSION;
  const records = new WeakMap<Response, PaymentRecord>();
  const pinned = { payTo: options.expect?.payTo, asset: options.expect?.asset };
  const expected = { payTo: pinned.payTo !== undefined, asset: pinned.asset !== undefined };
  let spent = 0n;
  let pending = 0n;

  /** The entry of our network, checked against the pins (pinning it if first) and the caps. */
  function accept(challenge: PaymentRequiredBody, url: string): { requirement: PaymentRequirements; amount: bigint } {
    const requirement = challenge.accepts.find((a) => a.scheme === "exact" && info.networks.includes(a.network));
    if (!requirement)
      refuse(
        "network_not_offered",
        `${url} offers no exact payment on ${options.network} (${challenge.accepts.map((a) => a.network).join(", ")})`,
      );
    const same = (a: string, b: string) => sameAddress(info.family, a, b);
    if (pinned.asset !== undefined && !same(pinned.asset, requirement.asset))
      refuse(expected.asset ? "asset_unexpected" : "asset_changed", `asset ${requirement.asset} is not ${pinned.asset}`, requirement);
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
      amount = microAmount(requirement.maxAmountRequired);
    } catch {
      refuse("invalid_challenge", `maxAmountRequired "${requirement.maxAmountRequired}" is not an integer amount`, requirement);
    }
    if (amount > maxPerCall)
      refuse("cap_per_call", `price ${formatUsdc(amount)} USDC is above the per-call cap of ${formatUsdc(maxPerCall)} USDC`, requirement);
    if (spent + pending + amount > maxPerSession)
      refuse(
        "cap_per_session",
        `paying ${formatUsdc(amount)} USDC would exceed the session cap of ${formatUsdc(maxPerSession)} USDC (spent ${formatUsdc(spent)})`,
        requirement,
      );
    return { requirement, amount };
  }

  async function payingFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    // The caller brought its own payment: not ours to pay or retry.
    if (request.headers.has("X-PAYMENT")) return send(request);
    const retry = request.clone();
    const first = await send(request);
    if (first.status !== 402) return first;

    const { requirement, amount } = accept(await challengeOf(first), request.url);
    pending += amount; // reserved against the session cap while this call is being paid
    let counted = false;
    try {
      if (options.approve && !(await options.approve({ url: request.url, method: request.method, requirement, amount })))
        refuse("declined", `payment of ${formatUsdc(amount)} USDC on ${requirement.network} declined`, requirement);
      const header = await options.payer.sign(requirement);
      retry.headers.set("X-PAYMENT", header);
      const second = await send(retry);
      if (second.status === 402) {
        counted = true; // refused: nothing charged
        const body: unknown = await second.json().catch(() => undefined);
        if (isChallenge(body)) throw new PaymentRejectedError(body, requirement, request.url);
        throw new HttpError(402, undefined, request.url, body);
      }
      const receipt = receiptOf(second);
      // Settled, or delivered without a receipt (outcome unknown: counted, so the cap stays a bound).
      const paid = receipt?.success || (second.ok && !receipt) ? amount : 0n;
      spent += paid;
      counted = true;
      records.set(second, { requirement, amount, paid, header, ...(receipt ? { receipt } : {}) });
      return second;
    } finally {
      pending -= amount;
      // The request failed in flight after the payment was sent: the outcome is unknown, so it counts.
      if (!counted && retry.headers.has("X-PAYMENT")) spent += amount;
    }
  }

  return Object.assign(payingFetch, {
    paymentOf: (response: Response) => records.get(response),
    spent: () => spent,
    network: options.network,
    maxPerCall,
    maxPerSession,
  });
}
