/**
 * The paid pipeline: every paid call, whichever transport brought it (a POST or a legacy GET through
 * the paid front, a tool call), runs the same named steps and comes to one outcome (outcomes.ts),
 * which its transport says its way:
 *
 *   check input → offer → open and admit the payment → answer under the deadline → check and store
 *   → settle → delivered
 *
 * The input is checked (schema, then the operation's own rules) before the payment is looked at, so a
 * caller learns of a mistake without paying: over HTTP a request without payment gets the challenge
 * whatever its input (an indexer probes each route with an empty body), its input's errors named in it;
 * a tool call's arguments are refused first (MCP clients and indexers read the tool's input schema
 * from `tools/list`; none probes a call). The answer is assembled, checked against the contract
 * and serialized before the payment settles, and stored with it: nothing that can fail for a reason of
 * the call's own runs after settlement, and any failure before it releases the payment, never charged.
 */
import type { Logger } from "pino";
import { StoreUnavailable } from "../../db/unavailable.js";
import type { FieldError } from "../../http/errors.js";
import type { Clock } from "../clock.js";
import type { PaidRoute } from "../contract/analytics-contract.js";
import type { OperationName } from "../contract/operation-types.js";
import type { InsightObserver, InsightWriter } from "../insight/types.js";
import type { Admission, AdmittedPayment, PaymentGate } from "../payments/gate/gate.js";
import { requestFingerprint } from "../payments/gate/request-fingerprint.js";
import type { StoredAnswer, Transport } from "../payments/ledger/store.js";
import type { Offer, Submission, SubmissionRead } from "../payments/x402/protocols.js";
import { type InputRule, inputRules, solanaAddressErrors } from "../segments/input-rules.js";
import type { OperationHandler, SegmentContext } from "../segments/types.js";
import { assembleEnvelope } from "./envelope.js";
import type { CallInput, InputCheck } from "./input-check.js";
import type { PaidOutcome } from "./outcomes.js";
import type { ResponseCheck } from "./response-check.js";

/** A paid call as any transport hands it over. */
export interface PaidCall {
  /** What the call sent: a POST's body or a tool's arguments, a request's query string and path. */
  input: CallInput;
  /** The offer at the URL paid for (the requirement's `resource`), asked once the input passed its checks. */
  offer(): Offer;
  /** The payment the call carries, read from the transport's own place for it. */
  payment: SubmissionRead;
  /** The transport that brought the call, recorded with its payment. */
  transport: Transport;
  requestId: string;
}

export type PaidPipeline = (call: PaidCall) => Promise<PaidOutcome>;

export interface PipelineDeps {
  gate: PaymentGate;
  insight: InsightWriter;
  clock: Clock;
  logger: Logger;
  segment: SegmentContext;
  /** The contract's check of the route's answers. */
  checkResponse: ResponseCheck;
  /** The route's input check (input-check.ts): the operation's input, or every field that breaks the contract. */
  checkInput: InputCheck;
  insightObserver: InsightObserver;
  /** Longest time from a payment's admission to its answer being ready. */
  answerTimeoutMs: number;
}

/** The answer was not ready before the payment's deadline. */
class AnswerTimeout extends Error {}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AnswerTimeout()), Math.max(0, ms));
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** What every step of one route's pipeline reads: the route, its handler and rule, and the service's parts. */
interface RouteRun {
  route: PaidRoute;
  handler: OperationHandler;
  /** The segment context on this route's prefix. */
  segment: SegmentContext;
  inputRule: InputRule<OperationName> | undefined;
  timeoutSeconds: number;
  deps: PipelineDeps;
}

/** Check input: the contract's schemas, then the fields' rules beyond them; the operation's input if it passes. */
function checkInput(run: RouteRun, call: PaidCall): { input: Record<string, unknown> } | { errors: FieldError[] } {
  if (call.input.unread) return { errors: call.input.unread };
  const checked = run.deps.checkInput(call.input);
  if ("errors" in checked) return checked;
  const addresses = solanaAddressErrors(run.route, checked.input);
  if (addresses.length) return { errors: addresses };
  const broken = run.inputRule?.(checked.input as never);
  return broken ? { errors: [broken] } : checked;
}

/** Open and admit the payment: the gate's verdict as an outcome, or the admitted payment to answer for. */
async function admit(
  run: RouteRun,
  call: PaidCall,
  input: Record<string, unknown>,
  payment: Submission,
): Promise<PaidOutcome | AdmittedPayment> {
  const { route, deps } = run;
  const fingerprint = requestFingerprint(route.payment.network.prefix, route.name, input, payment.version);
  let admission: Admission;
  try {
    const request = { operation: route.name, requestId: call.requestId, fingerprint, transport: call.transport };
    admission = await deps.gate.admit(payment, call.offer(), request);
  } catch (error) {
    if (!(error instanceof StoreUnavailable)) throw error;
    return { kind: "ledger_unreachable", before: "admission", cause: error };
  }
  if (admission.kind === "admitted") return admission.payment;
  if (admission.kind === "stored")
    return { kind: "delivered", answer: admission.answer, receipt: admission.receipt, replayed: true };
  if (admission.kind === "malformed") return { kind: "malformed_payment", detail: admission.detail };
  return admission;
}

/** Check and store: the envelope checked against the contract and serialized, as it will be sent and stored. */
async function answer(run: RouteRun, input: unknown, requestId: string): Promise<StoredAnswer> {
  const { route, deps } = run;
  const startedAt = performance.now();
  // The input passed this route's request schema: it is the operation's request, at run time.
  const outcome = await run.handler(input as never, run.segment);
  const envelope = await assembleEnvelope(outcome, {
    writer: deps.insight,
    clock: deps.clock,
    operation: route.name,
    summary: route.summary,
    signals: route.signals,
    startedAt,
  });
  if (envelope.failure) {
    const { cause, message: detail } = envelope.failure;
    deps.logger.warn(
      { requestId, operation: route.name, cause, detail },
      "insight model failed; answering 206 with the data and the rule engine's signal",
    );
    deps.insightObserver.insight({ outcome: "partial", cause });
  } else deps.insightObserver.insight({ outcome: "answered" });
  const violations = deps.checkResponse(envelope.status, envelope.body);
  if (violations.length)
    throw new Error(`${route.operationId} produced an envelope outside the contract: ${violations.join("; ")}`);
  return { status: envelope.status, body: JSON.stringify(envelope.body) };
}

/** Answer under the deadline; on any failure the payment is released (never charged) and the failure is the outcome. */
async function answerInTime(
  run: RouteRun,
  payment: AdmittedPayment,
  call: PaidCall,
  input: Record<string, unknown>,
): Promise<StoredAnswer | PaidOutcome> {
  const { deps } = run;
  try {
    return await withDeadline(answer(run, input, call.requestId), payment.deadlineAt - deps.clock.now());
  } catch (error) {
    const timedOut = error instanceof AnswerTimeout;
    const why = timedOut ? "the answer was not ready before its deadline" : String((error as Error)?.message ?? error);
    // If the ledger cannot record it now, the gate asks again as it comes back (recovery at the deadline otherwise).
    await deps.gate
      .release(payment, why)
      .catch((failure) =>
        deps.logger.error({ err: failure, requestId: call.requestId }, "could not release a payment"),
      );
    return timedOut ? { kind: "too_late", timeoutSeconds: run.timeoutSeconds } : { kind: "answer_failed", error };
  }
}

/**
 * Settle the payment with the answer ready to send: delivered, refused, too late, its reservation lost with the
 * ledger's database (nothing reserved any more: as if the ledger had been out of reach at admission), or its outcome
 * unknown.
 */
async function settle(
  run: RouteRun,
  payment: AdmittedPayment,
  ready: StoredAnswer,
  call: PaidCall,
): Promise<PaidOutcome> {
  const { deps } = run;
  const logged = { requestId: call.requestId, network: payment.network, x402Version: payment.version };
  try {
    const delivery = await deps.gate.settle(payment, ready);
    if (delivery.kind === "settled")
      return { kind: "delivered", answer: ready, receipt: delivery.receipt, replayed: false };
    if (delivery.kind === "late") {
      deps.logger.warn(logged, "answer ready after its payment's deadline; not charged");
      return { kind: "too_late", timeoutSeconds: run.timeoutSeconds };
    }
    if (delivery.kind === "lost") {
      // Not late: the ledger lost the reservation (a database crash), so the same payment sent again is reserved anew.
      const fields = { ...logged, payment: payment.key, entry: payment.entry, refusedBy: delivery.refusedBy };
      deps.logger.error(fields, "the ledger no longer holds this payment's reservation; not charged");
      const cause = new Error(`the ledger refused the settlement's record (${delivery.refusedBy})`);
      return { kind: "ledger_unreachable", before: "admission", cause };
    }
    if (delivery.kind === "unknown") {
      const fields = { ...logged, err: delivery.cause, payment: payment.key };
      deps.logger.error(fields, "settlement outcome unknown; recovery will resolve it");
      return { kind: "settlement_unknown", until: delivery.until, cause: delivery.cause };
    }
    deps.logger.warn({ ...logged, reason: delivery.reason }, "settlement refused the payment");
    return { kind: "settlement_refused", reason: delivery.reason, detail: delivery.detail, payer: payment.payer };
  } catch (error) {
    if (!(error instanceof StoreUnavailable)) throw error;
    // Nothing moved: released as soon as the ledger takes it, for the retry (a settlement whose reply was lost stays settled).
    await deps.gate
      .release(payment, "the ledger could not be reached to record the settlement")
      .catch((failure) =>
        deps.logger.warn({ err: failure, requestId: call.requestId }, "payment released once the ledger is back"),
      );
    return { kind: "ledger_unreachable", before: "settlement", cause: error };
  }
}

export function paidPipeline(route: PaidRoute, handler: OperationHandler, deps: PipelineDeps): PaidPipeline {
  const run: RouteRun = {
    route,
    handler,
    segment: { ...deps.segment, prefix: route.payment.network.prefix },
    inputRule: inputRules[route.name] as InputRule<OperationName> | undefined,
    timeoutSeconds: Math.ceil(deps.answerTimeoutMs / 1000),
    deps,
  };
  return async function pay(call: PaidCall): Promise<PaidOutcome> {
    const checked = checkInput(run, call);
    if (call.payment.kind === "none" && call.transport === "http")
      return { kind: "payment_required", ...("errors" in checked && { errors: checked.errors }) };
    if ("errors" in checked) return { kind: "invalid_input", errors: checked.errors };
    if (call.payment.kind === "none") return { kind: "payment_required" };
    if (call.payment.kind === "both") return { kind: "two_payments" };
    const admitted = await admit(run, call, checked.input, call.payment);
    if ("kind" in admitted) return admitted;
    const ready = await answerInTime(run, admitted, call, checked.input);
    return "kind" in ready ? ready : settle(run, admitted, ready, call);
  };
}
