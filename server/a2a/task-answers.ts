/**
 * A paid skill's outcome as an A2A v1.0 task says it (x402's A2A transport, standalone flow). What each outcome
 * means (charged, when to come back, the x402 reason, the sentence) is the table of paid/outcome-facts.ts; this module
 * adds only the task's form, one rule per kind of fact:
 *
 *   - delivered: `TASK_STATE_COMPLETED`, `payment-completed`, the envelope as the task's data artifact and every
 *     settle response of the task (the signed receipt included) in `x402.payment.receipts`;
 *   - a challenge (the table names an x402 reason): `TASK_STATE_INPUT_REQUIRED` with a fresh `x402.payment.required`
 *     naming the reason: `payment-required` before any payment, `payment-failed` with `x402.payment.error` after one;
 *     the payer pays again on the same task;
 *   - may differ on a retry (a payment in progress, a database out of reach, a deadline missed):
 *     `TASK_STATE_WORKING`, `payment-submitted`, and when to send the same payment message again;
 *   - anything else (the same on a retry): `TASK_STATE_FAILED`, never charged.
 *
 * A status message carries the sentence as text and, beside it, a data part with the contract's error code, the
 * fields at fault and `retryAfterSeconds`, as the MCP tool result's `structuredContent` does.
 */
import { namedFields, type OutcomeFacts, outcomeFacts, type TransportWords } from "../analytics/paid/outcome-facts.js";
import type { PaidOutcome } from "../analytics/paid/outcomes.js";
import { settlementFailureV2, settlementResponseV2 } from "../analytics/payments/x402/protocols.js";
import type { PaymentRequiredV2, SettlementFailureV2, SettlementReceiptV2 } from "../analytics/payments/x402/types.js";
import { X402_META, type X402PaymentStatus } from "./protocol.js";

/** A2A v1.0's task states, as their JSON names them. */
export const TASK_STATE = {
  working: "TASK_STATE_WORKING",
  completed: "TASK_STATE_COMPLETED",
  failed: "TASK_STATE_FAILED",
  canceled: "TASK_STATE_CANCELED",
  inputRequired: "TASK_STATE_INPUT_REQUIRED",
} as const;
export type TaskState = (typeof TASK_STATE)[keyof typeof TASK_STATE];

export type SettleResponse = SettlementReceiptV2 | SettlementFailureV2;

/** The task an outcome answers, as far as its form depends on it. */
export interface AnsweredTask {
  id: string;
  contextId: string;
  skill: string;
  /** The skill's `PaymentRequired` on every network, `error` naming why. */
  challenge(error: PaymentRequiredV2["error"]): PaymentRequiredV2;
  caip2: string;
  price: string;
  now: number;
  /** Every settle response of the task before this outcome (x402's A2A transport keeps them all). */
  receipts: SettleResponse[];
  signReceipt?(response: SettlementReceiptV2, answerBody: string): SettlementReceiptV2;
}

/** A task as its JSON is written: the status, the artifacts, and the state the store keeps beside it. */
export interface TaskAnswer {
  state: TaskState;
  /** The task's JSON (A2A v1.0 `Task`). */
  json: string;
  /** The settle responses the task now carries. */
  receipts: SettleResponse[];
}

/** How a task's sentences name a call and its payment. */
export const a2aWords = (task: Pick<AnsweredTask, "price">): TransportWords => ({
  again: "Send the same payment message on this task again",
  call: "task",
  paymentPlace: `the signed x402 v2 PaymentPayload in message.metadata["${X402_META.payload}"], with "${X402_META.status}": "payment-submitted", on this task`,
  price: `${task.price} USD`,
});

const textPart = (text: string) => ({ text });

/** The status message of a task: its sentence, the facts' data, and the x402 metadata. */
function statusMessage(task: AnsweredTask, parts: unknown[], metadata: Record<string, unknown>) {
  return {
    messageId: `${task.id}:${task.now}`,
    contextId: task.contextId,
    taskId: task.id,
    role: "ROLE_AGENT",
    parts,
    metadata,
  };
}

function taskJson(task: AnsweredTask, state: TaskState, message: unknown, artifacts?: string): string {
  const status = JSON.stringify({ state, message, timestamp: new Date(task.now).toISOString() });
  const head = `{"id":${JSON.stringify(task.id)},"contextId":${JSON.stringify(task.contextId)},"status":${status}`;
  return `${head}${artifacts === undefined ? "" : `,"artifacts":${artifacts}`},"metadata":{"skill":${JSON.stringify(task.skill)}}}`;
}

/** Delivered: the envelope (the stored body, as it is) as the task's artifact, and its settle response. */
function delivered(outcome: Extract<PaidOutcome, { kind: "delivered" }>, task: AnsweredTask): TaskAnswer {
  const { answer, receipt } = outcome;
  const response = settlementResponseV2(receipt, task.caip2);
  const receipts = [...task.receipts, task.signReceipt ? task.signReceipt(response, answer.body) : response];
  const metadata = { [X402_META.status]: "payment-completed", [X402_META.receipts]: receipts };
  const message = statusMessage(task, [textPart("Paid and delivered: the answer is the task's artifact.")], metadata);
  const artifact = `[{"artifactId":${JSON.stringify(`${task.id}:answer`)},"name":${JSON.stringify(task.skill)},"parts":[{"data":${answer.body},"mediaType":"application/json"}]}]`;
  return { state: TASK_STATE.completed, json: taskJson(task, TASK_STATE.completed, message, artifact), receipts };
}

/** A challenge: pay (again) on this task, the requirements naming why. */
function challenge(outcome: PaidOutcome, task: AnsweredTask, facts: OutcomeFacts): TaskAnswer {
  const reason = facts.x402Reason as PaymentRequiredV2["error"];
  const failed =
    outcome.kind === "settlement_refused"
      ? [settlementFailureV2({ reason: outcome.reason, payer: outcome.payer }, task.caip2)]
      : [];
  const receipts = [...task.receipts, ...failed];
  const first = outcome.kind === "payment_required";
  const metadata: Record<string, unknown> = {
    [X402_META.status]: (first ? "payment-required" : "payment-failed") satisfies X402PaymentStatus,
    [X402_META.required]: task.challenge(reason),
    ...(!first && { [X402_META.error]: reason }),
    ...(receipts.length && { [X402_META.receipts]: receipts }),
  };
  // The table's own fields only: a challenge's reason is `x402.payment.error`, and most challenges have no error code.
  const fields = { error: facts.error, message: facts.sentence, ...namedFields(outcome, facts) };
  const message = statusMessage(task, [textPart(facts.sentence), { data: fields }], metadata);
  return { state: TASK_STATE.inputRequired, json: taskJson(task, TASK_STATE.inputRequired, message), receipts };
}

/** Any other outcome: working (come back with the same payment) or failed, never charged. */
function unanswered(outcome: PaidOutcome, task: AnsweredTask, facts: OutcomeFacts, paid: boolean): TaskAnswer {
  const open = facts.retry.again === "may differ";
  const state = open ? TASK_STATE.working : TASK_STATE.failed;
  const status: X402PaymentStatus = open ? "payment-submitted" : "payment-failed";
  const metadata: Record<string, unknown> = paid
    ? {
        [X402_META.status]: status,
        ...(!open && { [X402_META.error]: facts.error }),
        ...(task.receipts.length && { [X402_META.receipts]: task.receipts }),
      }
    : {};
  const fields = { error: facts.error, message: facts.sentence, ...namedFields(outcome, facts) };
  const message = statusMessage(task, [textPart(facts.sentence), { data: fields }], metadata);
  return { state, json: taskJson(task, state, message), receipts: task.receipts };
}

/**
 * The task an outcome leaves. `paid`: the outcome answers a payment message (a refusal then says `payment-failed`);
 * otherwise it answers the message that started the task, before any payment was read.
 */
export function taskAnswer(outcome: PaidOutcome, task: AnsweredTask, paid: boolean): TaskAnswer {
  if (outcome.kind === "delivered") return delivered(outcome, task);
  const facts = outcomeFacts(outcome, a2aWords(task), task.now);
  if (facts.x402Reason) return challenge(outcome, task, facts);
  return unanswered(outcome, task, facts, paid);
}

/** A task the payer declined to pay (`payment-rejected`): canceled, never charged. */
export function rejectedTask(task: AnsweredTask): TaskAnswer {
  const sentence = "The payment was declined; nothing was charged. Start a new task to ask again.";
  const message = statusMessage(task, [textPart(sentence)], {
    [X402_META.status]: "payment-rejected" satisfies X402PaymentStatus,
    ...(task.receipts.length && { [X402_META.receipts]: task.receipts }),
  });
  return { state: TASK_STATE.canceled, json: taskJson(task, TASK_STATE.canceled, message), receipts: task.receipts };
}
