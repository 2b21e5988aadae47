/**
 * Asking about a payment: what became of a purchase, read from the ledger by its x402
 * `payment-identifier` or by its settlement's transaction, on one prefix's network, in words a payer
 * can act on (settled, pending, not charged), for every transport: the free HTTP routes here and the
 * free MCP tool (server/mcp/payment-status-tool.ts) both answer `lookUpPayment`'s result.
 *
 * What it discloses (docs/payments.md, "Asking about a payment"): by identifier, the payer's own
 * secret, the stage, amount, network, transaction and the very receipt the answer carried, never the
 * answer's body; by transaction, which the chain shows anyone, only the stage, amount and network.
 */
import type { RequestHandler } from "express";
import type { components } from "../../../generated/types/analytics.js";
import { skillResource } from "../../a2a/protocol.js";
import type { AnalyticsConfig } from "../../config/analytics.js";
import { ApiError } from "../../http/errors.js";
import { requestOrigin } from "../../http/origin.js";
import { toolResource } from "../../mcp/paid/offers.js";
import type { Clock } from "../clock.js";
import type { AnalyticsContract, PaidRoute } from "../contract/analytics-contract.js";
import { secondsUntil } from "../paid/outcome-facts.js";
import { receiptOf } from "../payments/gate/gate.js";
import type { LedgerStore, PaymentQuery, PaymentRecord } from "../payments/ledger/store.js";
import { settlementResponseV2 } from "../payments/x402/protocols.js";
import { type ReceiptSigner, receiptSigner } from "../payments/x402/receipts/offer-receipt.js";
import { deployedNetworks, type NetworkTarget } from "../payments/x402/requirements.js";

export type PaymentStatusBody = components["schemas"]["PaymentStatus"];
type PrefixName = components["schemas"]["PrefixName"];

/** A lookup's result in no transport's terms: the status (with when to ask again), or why nothing was found. */
export type LookupResult =
  | { found: true; body: PaymentStatusBody; retryAfter?: number }
  | { found: false; message: string };

export interface PaymentStatusDeps {
  contract: AnalyticsContract;
  config: AnalyticsConfig;
  ledger: Pick<LedgerStore, "lookup">;
  clock: Clock;
}

/** The lookup: `prefix` chooses the network, `origin` the resource URL an HTTP purchase's receipt names. */
export type LookUpPayment = (prefix: PrefixName, query: PaymentQuery, origin: string) => Promise<LookupResult>;

const SETTLED =
  "Charged: the payment settled. Keep the receipt; a lost answer is fetched again by repeating the request with the same payment or identifier. Do not pay again.";

/** The status of a payment found, with the sentence and the facts its stage gives (the mock answers its own with it). */
export function statusOf(record: PaymentRecord, now: number, recoveryIntervalMs: number): LookupResult {
  const base = { stage: record.status, network: record.network, amount: String(record.amount) } as const;
  if (record.status === "settled")
    return {
      found: true,
      body: {
        status: "settled",
        ...base,
        message: SETTLED,
        ...(record.transaction && { transaction: record.transaction }),
        simulated: record.simulated,
      } as PaymentStatusBody,
    };
  if (record.status === "verified" || record.status === "settling") {
    // As a held payment is answered: by its deadline plus one recovery pass, it will have moved on.
    const retryAfter = secondsUntil(record.deadlineAt + recoveryIntervalMs, now);
    const doing =
      record.status === "verified" ? "its answer is being made" : "its settlement's outcome is not known yet";
    return {
      found: true,
      retryAfter,
      body: {
        status: "pending",
        ...base,
        retry_after: retryAfter,
        message: `In progress: ${doing}. Ask again in ${retryAfter} s; do not pay again.`,
      } as PaymentStatusBody,
    };
  }
  const reason = record.reason ?? (record.status === "failed" ? "the settlement refused it" : "it was released");
  const how = record.status === "failed" ? "refused by the settlement" : "released";
  return {
    found: true,
    body: {
      status: "not_charged",
      ...base,
      reason,
      message: `Not charged: the payment was ${how} (${reason}). Nothing moved; pay again to buy the answer.`,
    } as PaymentStatusBody,
  };
}

/** The signed receipt in a v2 settlement response (its `offer-receipt` extension), if it carries one. */
export const signedReceiptOf = (response: { extensions?: Record<string, unknown> }): PaymentStatusBody["receipt"] =>
  (response.extensions?.["offer-receipt"] as { info?: { receipt?: PaymentStatusBody["receipt"] } } | undefined)?.info
    ?.receipt;

/** What the purchase paid for, as its receipt named it: the tool, the skill, or the route at the asker's origin. */
function resourceOf(record: PaymentRecord, route: PaidRoute, origin: string): string {
  if (record.transport === "mcp") return toolResource(route.name);
  if (record.transport === "a2a") return skillResource(route.name);
  return `${origin}${route.path}`;
}

/** The receipt the settled purchase's v2 answer carried, rebuilt from its stored answer (decision 0011); none once dropped. */
function receiptFor(
  record: PaymentRecord,
  target: NetworkTarget,
  { contract, signer }: { contract: AnalyticsContract; signer: ReceiptSigner | undefined },
  origin: string,
): PaymentStatusBody["receipt"] {
  if (!signer || !record.answer || !record.transaction) return undefined;
  const route = contract.paid.find(
    (r) => !r.legacy && r.name === record.endpoint && r.payment.network.prefix === target.prefix,
  );
  if (!route) return undefined;
  const resource = resourceOf(record, route, origin);
  const settlement = { transaction: record.transaction, simulated: record.simulated };
  const response = settlementResponseV2(receiptOf(record, settlement), target.caip2);
  return signedReceiptOf(signer.withReceipt(response, resource, record.answer.body));
}

export function paymentLookup(deps: PaymentStatusDeps): LookUpPayment {
  const targets = new Map(deployedNetworks(deps.config).map((target) => [target.name, target]));
  const signing = {
    contract: deps.contract,
    signer: deps.config.receipts && receiptSigner(deps.config.receipts, deps.config),
  };
  return async (prefix, query, origin) => {
    const target = targets.get(prefix) as NetworkTarget;
    const record = await deps.ledger.lookup(query, target.network);
    if (!record) {
      const named = "identifier" in query ? "identifier" : "transaction";
      return {
        found: false,
        message: `No payment with this ${named} on ${target.network}. A payment made under another prefix is asked about under that prefix.`,
      };
    }
    const result = statusOf(record, deps.clock.now(), deps.config.payments.recoveryIntervalMs);
    if (!result.found || result.body.status !== "settled" || !("identifier" in query)) return result;
    const receipt = receiptFor(record, target, signing, origin);
    return receipt ? { ...result, body: { ...result.body, receipt } } : result;
  };
}

/** The free routes' handlers, one per prefix and key: `<Prefix>_paymentStatus` and `<Prefix>_paymentStatusByTransaction`. */
export function paymentStatusHandlers(deps: PaymentStatusDeps): Record<string, RequestHandler> {
  const lookUp = paymentLookup(deps);
  const handler =
    (prefix: PrefixName, by: "identifier" | "transaction"): RequestHandler =>
    async (req, res, next) => {
      try {
        const value = String(by === "identifier" ? req.params.id : req.params.transaction);
        const query: PaymentQuery = by === "identifier" ? { identifier: value } : { transaction: value };
        const result = await lookUp(prefix, query, requestOrigin(req, deps.config.publicBaseUrl));
        if (!result.found) throw new ApiError(404, "not_found", result.message);
        res.set("Cache-Control", "no-store");
        if (result.retryAfter !== undefined) res.set("Retry-After", String(result.retryAfter));
        res.json(result.body);
      } catch (error) {
        next(error);
      }
    };
  return Object.fromEntries(
    deployedNetworks(deps.config).flatMap((target) => {
      const id = `${target.name[0]?.toUpperCase()}${target.name.slice(1)}`;
      return [
        [`${id}_paymentStatus`, handler(target.name, "identifier")],
        [`${id}_paymentStatusByTransaction`, handler(target.name, "transaction")],
      ];
    }),
  );
}
