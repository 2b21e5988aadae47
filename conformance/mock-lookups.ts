/**
 * The mock's payment lookups (`GET {prefix}/payments/{id}`, `/payments/by-transaction/{transaction}`, and the free MCP
 * tools): the payments it served, remembered in memory (the last `LIMIT`), answered as the service answers a settled
 * one (statusOf, payment-status.ts): by identifier with the receipt the answer carried, by transaction without it. An
 * id or a transaction it never served is the service's 404; one its schema refuses goes to Prism, which names it.
 */
import { NETWORKS } from "../lib/networks.js";
import { decodeHeader } from "../lib/x402-headers.js";
import {
  type LookUpPayment,
  type LookupResult,
  type PaymentStatusBody,
  signedReceiptOf,
  statusOf,
} from "../server/analytics/free/payment-status.js";
import type { PaymentQuery } from "../server/analytics/payments/ledger/store.js";
import { ApiError, toErrorResponse } from "../server/http/errors.js";
import type { MockAnswer } from "./mock-payments.js";
import type { OpenApiDoc } from "./openapi-doc.js";

/** How many served payments the mock remembers: a long session's, not an unbounded one's. */
const LIMIT = 10_000;

interface Served {
  network: string;
  payer: string;
  amount: string;
  transaction: string;
  receipt?: PaymentStatusBody["receipt"];
}

export interface MockLookups {
  /** Remembers a paid answer: its payment (and identifier, if it named one) and its receipt header. */
  remember(paid: { network: string; payer: string; identifier?: string }, amount: string, receiptHeader: string): void;
  lookUp: LookUpPayment;
  /** The answer to a lookup path, undefined for any other path (or a value Prism should judge). */
  answer(path: string): Promise<MockAnswer | undefined>;
}

/** Each lookup path of the document as a pattern capturing its value, with its prefix's name and what it is keyed by. */
function lookupRoutes(document: OpenApiDoc) {
  return Object.entries(document.paths).flatMap(([path, item]) => {
    const op = item.get as { operationId?: string; tags?: string[] } | undefined;
    if (!op?.tags?.includes("Payments")) return [];
    const prefix = op.operationId?.split("_")[0]?.toLowerCase() as "solana" | "base" | "skale";
    const pattern = new RegExp(`^${path.replace(/\{[^}]+\}/, "([^/]+)")}$`);
    return [{ pattern, prefix, by: path.endsWith("{id}") ? ("identifier" as const) : ("transaction" as const) }];
  });
}

export function mockLookups(document: OpenApiDoc): MockLookups {
  const byId = new Map<string, Served>();
  const byTransaction = new Map<string, Served>();
  const routes = lookupRoutes(document);
  const schemas = document.components?.schemas as Record<string, { pattern?: string }> | undefined;
  const valid = {
    identifier: new RegExp(schemas?.PaymentIdentifier?.pattern ?? "."),
    transaction: new RegExp(schemas?.SettlementTransaction?.pattern ?? "."),
  };
  const keep = (map: Map<string, Served>, key: string, served: Served) => {
    if (map.size >= LIMIT) map.delete(map.keys().next().value as string);
    map.set(key, served);
  };

  const lookUp: LookUpPayment = async (prefix, query: PaymentQuery) => {
    const network = NETWORKS.find((n) => n.name === prefix)?.testnet.network;
    const served = "identifier" in query ? byId.get(query.identifier) : byTransaction.get(query.transaction);
    if (!served || served.network !== network)
      return {
        found: false,
        message: `No payment with this ${"identifier" in query ? "identifier" : "transaction"} on ${network}. A payment made under another prefix is asked about under that prefix.`,
      };
    const record = { ...served, status: "settled" as const, amount: BigInt(served.amount), simulated: true };
    const result = statusOf(
      { ...record, endpoint: "", transport: "http", identifier: null, reason: null, deadlineAt: 0 },
      Date.now(),
      0,
    ) as Extract<LookupResult, { found: true }>;
    const receipt = "identifier" in query ? served.receipt : undefined;
    return receipt ? { ...result, body: { ...result.body, receipt } } : result;
  };

  return {
    remember(paid, amount, receiptHeader) {
      const response = decodeHeader(receiptHeader) as { transaction: string; extensions?: Record<string, unknown> };
      const receipt = signedReceiptOf(response);
      const served = { network: paid.network, payer: paid.payer, amount, transaction: response.transaction, receipt };
      keep(byTransaction, response.transaction, served);
      if (paid.identifier) keep(byId, paid.identifier, served);
    },
    lookUp,
    async answer(path): Promise<MockAnswer | undefined> {
      for (const route of routes) {
        const value = route.pattern.exec(path)?.[1];
        if (value === undefined) continue;
        const decoded = decodeURIComponent(value);
        if (!valid[route.by].test(decoded)) return undefined;
        const query = route.by === "identifier" ? { identifier: decoded } : { transaction: decoded };
        const result = await lookUp(route.prefix, query, "");
        if (!result.found) {
          const { status, body } = toErrorResponse(new ApiError(404, "not_found", result.message));
          return { status, headers: {} as Record<string, string>, body };
        }
        return { status: 200, headers: { "Cache-Control": "no-store" }, body: result.body };
      }
      return undefined;
    },
  };
}
