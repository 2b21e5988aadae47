/**
 * The typed, paying analytics client: openapi-fetch over the generated `paths`, with the network's
 * prefix in its base URL and the root paths in its types, and a paying `fetch` underneath (x402 v2
 * when offered, else v1, or the version forced by `protocol`). `call` (POST) and `get` (legacy GET)
 * return the typed envelope with the x402 version, the receipt and the amount paid, or throw a
 * typed error.
 *
 * @example
 * const analytics = createAnalyticsClient({ baseUrl, network: "base", payer: evmPayer(account), maxPerCallUsd: "0.05" });
 * const { envelope, paid } = await analytics.call("/defi/tvl", { chain: "solana", limit: 3 });
 */
import createClient, { type Client } from "openapi-fetch";
import type { paths } from "../generated/types/analytics.js";
import { microAmount, usdToMicro } from "./amounts.js";
import { dataOrThrow } from "./errors.js";
import { NETWORKS, type NetworkChoice } from "./networks.js";
import type {
  BodyArgs,
  HttpMethod,
  JsonResponse,
  LooseClient,
  OperationOf,
  ParamsArgs,
  PathsWith,
} from "./operation-types.js";
import type { Payer } from "./payers.js";
import { createPayingFetch, type PayingFetch, type PayingFetchOptions } from "./paying-fetch.js";
import type { PaymentHeaderName, Receipt, Requirement, X402Version } from "./x402/types.js";

type RootPath = Exclude<keyof paths, `/base/${string}` | `/skale/${string}`>;
type IsPaid<Item> = Item extends { post: { responses: { 402: unknown } } } | { get: { responses: { 402: unknown } } }
  ? true
  : false;

/** Root paths of paid operations (their `/base` and `/skale` twins are reached through the prefix). */
export type PaidPath = { [K in RootPath]: IsPaid<paths[K]> extends true ? K : never }[RootPath];
export type PaidPaths = Pick<paths, PaidPath>;
/** The payment lookups (free), asked under the client's network's prefix. */
export type LookupPaths = Pick<paths, "/payments/{id}" | "/payments/by-transaction/{transaction}">;
/** The free endpoints (root only): service info, OpenAPI document, agent card, x402 discovery. */
export type FreePaths = Pick<paths, Exclude<RootPath, PaidPath | keyof LookupPaths>>;
/** What became of a payment: settled (with its transaction, and its receipt when asked by identifier), pending, not charged. */
export type PaymentStatus = JsonResponse<LookupPaths["/payments/{id}"]["get"], 200>;
/** How a payment is named to the lookup: the purchase's x402 `payment-identifier`, or its settlement's transaction. */
export type PaymentQuery = { identifier: string } | { transaction: string };
export type PostPath = PathsWith<PaidPaths, "post">;
export type GetPath = PathsWith<PaidPaths, "get">;
export type PaidOperation<P extends PaidPath, M extends HttpMethod> = OperationOf<PaidPaths, P, M>;

export interface PaymentOutcome {
  /** Micro-USDC counted as spent for this call (the price, once the receipt says success). */
  paid: bigint;
  /** The x402 version paid in. */
  version?: X402Version;
  /** The decoded `PAYMENT-RESPONSE` (v2) or `X-PAYMENT-RESPONSE` (v1). */
  receipt?: Receipt;
  /** What was paid for, as the version paid in offered it. */
  requirement?: Requirement;
  /** The header the payment was sent in: `PAYMENT-SIGNATURE` (v2) or `X-PAYMENT` (v1). */
  paymentHeaderName?: PaymentHeaderName;
  /** The payment header's value (single use). */
  paymentHeader?: string;
  /** The purchase's x402 `payment-identifier` (a v2 payment to a service that declares it). */
  paymentId?: string;
  response: Response;
}

/** 200 (model-enriched) or 206 (raw data, `insight: null`), with the payment. */
export type PaidResult<Op> = (
  | { status: 200; envelope: JsonResponse<Op, 200> }
  | { status: 206; envelope: JsonResponse<Op, 206> }
) &
  PaymentOutcome;

export interface AnalyticsClientOptions {
  /** Origin of the service, e.g. `http://localhost:4021`; the network's prefix is added. */
  baseUrl: string;
  /** Which prefix to call and pay on: `solana` (root), `base`, `skale`. */
  network: NetworkChoice;
  payer: Payer;
  /** Per-call cap in USD, e.g. `"0.05"`; default 0.10. */
  maxPerCallUsd?: string | number;
  /** Per-client cap in USD; default 1.00. */
  maxPerSessionUsd?: string | number;
  /** Per-call cap in micro-USDC (wins over `maxPerCallUsd`). */
  maxPerCall?: bigint | string;
  /** Per-client cap in micro-USDC (wins over `maxPerSessionUsd`). */
  maxPerSession?: bigint | string;
  expect?: PayingFetchOptions["expect"];
  approve?: PayingFetchOptions["approve"];
  /** The x402 version to pay in: `auto` (default: v2 when the 402 offers it, else v1), `v1` or `v2`. */
  protocol?: PayingFetchOptions["protocol"];
  /**
   * How often a paid request is repeated with the same payment after a lost connection or a 503 with `Retry-After`;
   * default 2. An in-progress answer (503 `payment_in_progress`) is always followed, as told.
   */
  paidRetries?: PayingFetchOptions["paidRetries"];
  /** The most a paid call waits in all before its repeats (default 30 s): a longer wait asked is returned as it is. */
  maxRetryWaitMs?: PayingFetchOptions["maxRetryWaitMs"];
  /** The transport under the paying layer (tests, proxies); default the global `fetch`. */
  fetch?: (input: Request) => Promise<Response>;
}

export interface AnalyticsClient {
  /** openapi-fetch over the paid root paths, paying through `fetch`; use `fetch.paymentOf(response)` for the payment. */
  client: Client<PaidPaths>;
  /** openapi-fetch over the free endpoints (never pays). */
  free: Client<FreePaths>;
  fetch: PayingFetch;
  network: NetworkChoice;
  /** `baseUrl` plus the network's prefix. */
  url: string;
  /** Micro-USDC spent by this client. */
  spent(): bigint;
  call<P extends PostPath>(
    path: P,
    ...body: BodyArgs<PaidOperation<P, "post">>
  ): Promise<PaidResult<PaidOperation<P, "post">>>;
  get<P extends GetPath>(
    path: P,
    ...params: ParamsArgs<PaidOperation<P, "get">>
  ): Promise<PaidResult<PaidOperation<P, "get">>>;
  /**
   * What became of a payment on this client's network, free (never pays): `settled`, `pending` (ask again after
   * `retry_after` seconds) or `not_charged`; undefined when no payment on the network has that identifier or transaction.
   */
  paymentStatus(query: PaymentQuery): Promise<PaymentStatus | undefined>;
}

function cap(micro: bigint | string | undefined, usd: string | number | undefined): bigint | undefined {
  if (micro !== undefined) return microAmount(micro);
  return usd === undefined ? undefined : usdToMicro(usd);
}

export function createAnalyticsClient(options: AnalyticsClientOptions): AnalyticsClient {
  const origin = options.baseUrl.replace(/\/+$/, "");
  const url = `${origin}${NETWORKS[options.network].prefix}`;
  const maxPerCall = cap(options.maxPerCall, options.maxPerCallUsd);
  const maxPerSession = cap(options.maxPerSession, options.maxPerSessionUsd);
  const payingFetch = createPayingFetch({
    network: options.network,
    payer: options.payer,
    ...(maxPerCall === undefined ? {} : { maxPerCall }),
    ...(maxPerSession === undefined ? {} : { maxPerSession }),
    ...(options.expect ? { expect: options.expect } : {}),
    ...(options.approve ? { approve: options.approve } : {}),
    ...(options.protocol ? { protocol: options.protocol } : {}),
    ...(options.paidRetries === undefined ? {} : { paidRetries: options.paidRetries }),
    ...(options.maxRetryWaitMs === undefined ? {} : { maxRetryWaitMs: options.maxRetryWaitMs }),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const client = createClient<PaidPaths>({ baseUrl: url, fetch: payingFetch });
  const free = createClient<FreePaths>({ baseUrl: origin, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const loose = client as unknown as LooseClient;
  const lookups = createClient<LookupPaths>({ baseUrl: url, ...(options.fetch ? { fetch: options.fetch } : {}) });

  function outcome<Op>(result: Awaited<ReturnType<LooseClient["GET"]>>): PaidResult<Op> {
    const payment = payingFetch.paymentOf(result.response);
    const { data, response } = dataOrThrow(result, payment?.requirement);
    return {
      status: response.status,
      envelope: data,
      paid: payment?.paid ?? 0n,
      ...(payment?.receipt ? { receipt: payment.receipt } : {}),
      ...(payment
        ? {
            version: payment.version,
            requirement: payment.requirement,
            paymentHeaderName: payment.headerName,
            paymentHeader: payment.header,
            ...(payment.paymentId ? { paymentId: payment.paymentId } : {}),
          }
        : {}),
      response,
    } as PaidResult<Op>;
  }

  return {
    client,
    free,
    fetch: payingFetch,
    network: options.network,
    url,
    spent: () => payingFetch.spent(),
    async call(path, ...[body]) {
      return outcome(await loose.POST(path, body === undefined ? {} : { body }));
    },
    async get(path, ...[params]) {
      return outcome(await loose.GET(path, params === undefined ? {} : { params }));
    },
    async paymentStatus(query) {
      const result =
        "identifier" in query
          ? await lookups.GET("/payments/{id}", { params: { path: { id: query.identifier } } })
          : await lookups.GET("/payments/by-transaction/{transaction}", {
              params: { path: { transaction: query.transaction } },
            });
      return result.response.status === 404 ? undefined : dataOrThrow(result).data;
    },
  };
}
