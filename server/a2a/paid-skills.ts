/**
 * The paid operations as A2A skills, on tasks kept in the ledger's database (analytics/tasks/task-store.ts). A
 * message naming a skill starts a task: its arguments are checked by the skill's paid pipeline with no payment, so
 * bad arguments fail the task before any payment is read, and good ones leave it waiting for payment with the
 * skill's `PaymentRequired`. A payment message on the task claims it for that payment, then runs the same pipeline
 * with the task's own arguments: verification, replay keys, stages, stored answers, deadlines and recovery are the
 * pipeline's, and a repeated payment message gets the answer that payment bought (a lost answer, a crash between
 * settlement and the task's write). The outcome is the task's next state (task-answers.ts).
 */
import { createHash, randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Clock } from "../analytics/clock.js";
import type { PaidOutcome } from "../analytics/paid/outcomes.js";
import type { StoredTask, TaskStore } from "../analytics/tasks/task-store.js";
import type { AnalyticsConfig } from "../config/analytics.js";
import type { PaidTool } from "../mcp/paid/catalogue.js";
import type { OfferedRoute, ToolOffers } from "../mcp/paid/offers.js";
import type { ToolRun } from "../mcp/paid/runnable-tools.js";
import {
  type AnsweredTask,
  rejectedTask,
  type SettleResponse,
  TASK_STATE,
  type TaskAnswer,
  taskAnswer,
} from "./task-answers.js";

/** A skill: a paid tool and its offers. */
export interface SkillTool extends ToolOffers {
  tool: PaidTool;
}

/**
 * What the skills run on: the tools, and how one call of a tool comes to an outcome (the service: its route's paid
 * pipeline, runnable-tools.ts; the mock: its own judgement of the payment, conformance/mock-skills.ts).
 */
export interface PaidSkillDeps<T extends SkillTool> {
  tools: Map<string, T>;
  run(tool: T, call: ToolRun): Promise<[PaidOutcome, OfferedRoute]>;
  tasks: TaskStore;
  clock: Clock;
  config: Pick<AnalyticsConfig, "payments">;
  logger: Logger;
}

/** A skill as the text answer and the card describe it. */
export interface SkillSummary {
  name: string;
  description: string;
  price: string;
}

/** What a message on a task came to: the task's JSON, or why there is none to answer with. */
export type TaskReply =
  | { kind: "task"; json: string }
  | { kind: "unknown_skill" }
  | { kind: "not_found" }
  /** The task is over (completed by another payment, failed, canceled): a new task asks again. */
  | { kind: "terminal"; state: string };

export interface PaidSkills {
  summaries: SkillSummary[];
  start(
    skill: string,
    args: Record<string, unknown>,
    contextId: string | undefined,
    requestId: string,
  ): Promise<TaskReply>;
  pay(taskId: string, payload: unknown, requestId: string): Promise<TaskReply>;
  reject(taskId: string): Promise<TaskReply>;
  get(taskId: string): Promise<TaskReply>;
}

const TERMINAL = new Set<string>([TASK_STATE.completed, TASK_STATE.failed, TASK_STATE.canceled]);

/** A payment's reference on its task: the same signed payload, sent again, is the same payment. */
const paymentRefOf = (payload: unknown) => createHash("sha256").update(JSON.stringify(payload)).digest("base64url");

/**
 * A task waiting for its first payment is kept without its JSON (`OFFERED`): that JSON is the skill's offer, the
 * same for every such task, several kilobytes that every task started would write and every payment's claim read
 * back. It is written out when read (`GetTask`).
 */
const OFFERED = "";

/** The settle responses a task's last answer carries (x402's A2A transport keeps every one of the task). */
function receiptsOf(task: StoredTask): SettleResponse[] {
  if (task.task === OFFERED || !task.task.includes('"x402.payment.receipts"')) return [];
  const parsed = JSON.parse(task.task) as { status?: { message?: { metadata?: Record<string, unknown> } } };
  const receipts = parsed.status?.message?.metadata?.["x402.payment.receipts"];
  return Array.isArray(receipts) ? (receipts as SettleResponse[]) : [];
}

/** The skills' dependencies, with how long a task is kept and a claim lasts. */
interface Skills<T extends SkillTool> extends PaidSkillDeps<T> {
  keptFor: number;
  claimFor: number;
}

/** What a task's answer depends on: its skill's offers, the route paid (or offered) on, its settle responses so far. */
const answered = <T extends SkillTool>(
  ctx: Skills<T>,
  tool: T,
  task: Pick<StoredTask, "id" | "contextId">,
  route: OfferedRoute,
  prior: SettleResponse[],
): AnsweredTask => ({
  id: task.id,
  contextId: task.contextId,
  skill: tool.tool.definition.name,
  challenge: tool.challenge,
  caip2: route.caip2,
  price: tool.price,
  now: ctx.clock.now(),
  receipts: prior,
  signReceipt: tool.signReceipt,
});

/** A new task of `skill`: its arguments checked with no payment, then kept as the outcome leaves it. */
async function startTask<T extends SkillTool>(
  ctx: Skills<T>,
  skill: string,
  args: Record<string, unknown>,
  contextId: string | undefined,
  requestId: string,
): Promise<TaskReply> {
  const tool = ctx.tools.get(skill);
  if (!tool) return { kind: "unknown_skill" };
  const [outcome, route] = await ctx.run(tool, { arguments: args, payment: undefined, requestId });
  const task = { id: randomUUID(), contextId: contextId || randomUUID() };
  const answer = taskAnswer(outcome, answered(ctx, tool, task, route, []), false);
  const now = ctx.clock.now();
  const json = outcome.kind === "payment_required" ? OFFERED : answer.json;
  const kept = { state: answer.state, task: json, createdAt: now, expiresAt: now + ctx.keptFor };
  await ctx.tasks.create({ ...task, skill, arguments: JSON.stringify(args), ...kept });
  return { kind: "task", json: answer.json };
}

/** The payment run on the claimed task, and the task written as its outcome leaves it. */
async function runPaid<T extends SkillTool>(
  ctx: Skills<T>,
  tool: T,
  task: StoredTask,
  payment: { payload: unknown; ref: string; requestId: string },
): Promise<TaskAnswer> {
  const { payload, ref, requestId } = payment;
  const args = JSON.parse(task.arguments) as Record<string, unknown>;
  const [outcome, route] = await ctx.run(tool, { arguments: args, payment: payload, requestId });
  if (outcome.kind === "answer_failed")
    ctx.logger.warn({ err: outcome.error, requestId, skill: task.skill }, "skill failed; not charged");
  const answer = taskAnswer(outcome, answered(ctx, tool, task, route, receiptsOf(task)), true);
  // Nothing was charged: the task is free for another payment. Charged, or not known yet: the claim stays.
  const release = answer.state === TASK_STATE.inputRequired || answer.state === TASK_STATE.failed;
  const now = ctx.clock.now();
  const change = { state: answer.state, task: answer.json, expiresAt: now + ctx.keptFor, release };
  await ctx.tasks.settle(task.id, ref, change, now);
  return answer;
}

/**
 * Another payment holds the task until `until`: the table's `held` (come back then with the same payment), answered
 * to this message only; the task stays the holder's.
 */
async function heldBy<T extends SkillTool>(ctx: Skills<T>, taskId: string, until: number): Promise<TaskReply> {
  const task = await ctx.tasks.get(taskId, ctx.clock.now());
  const tool = task && ctx.tools.get(task.skill);
  if (!task || !tool) return { kind: "not_found" };
  const held = answered(ctx, tool, task, tool.fallback, receiptsOf(task));
  return { kind: "task", json: taskAnswer({ kind: "held", stage: "verified", until }, held, true).json };
}

/** A payment message on a task: claimed for it, then run; or what holds or ended the task. */
async function payTask<T extends SkillTool>(
  ctx: Skills<T>,
  taskId: string,
  payload: unknown,
  requestId: string,
): Promise<TaskReply> {
  const ref = paymentRefOf(payload);
  const now = ctx.clock.now();
  const claim = await ctx.tasks.claim(taskId, ref, now + ctx.claimFor, now);
  if (claim.kind === "gone") return { kind: "not_found" };
  // The same payment again on its completed task: the answer it bought (a lost reply, a retry after a crash).
  if (claim.kind === "completed")
    return claim.task.paymentRef === ref
      ? { kind: "task", json: claim.task.task }
      : { kind: "terminal", state: claim.task.state };
  if (claim.kind === "held") return heldBy(ctx, taskId, claim.until);
  const { task } = claim;
  if (TERMINAL.has(task.state)) return { kind: "terminal", state: task.state };
  const tool = ctx.tools.get(task.skill);
  if (!tool) return { kind: "unknown_skill" };
  return { kind: "task", json: (await runPaid(ctx, tool, task, { payload, ref, requestId })).json };
}

/** The payer declines: the task canceled, never charged; a task a payment holds stays that payment's. */
async function rejectTask<T extends SkillTool>(ctx: Skills<T>, taskId: string): Promise<TaskReply> {
  const now = ctx.clock.now();
  const task = await ctx.tasks.get(taskId, now);
  const tool = task && ctx.tools.get(task.skill);
  if (!task || !tool) return { kind: "not_found" };
  if (TERMINAL.has(task.state)) return { kind: "terminal", state: task.state };
  if (task.claimedUntil !== undefined && task.claimedUntil >= now) return heldBy(ctx, taskId, task.claimedUntil);
  const answer = rejectedTask(answered(ctx, tool, task, tool.fallback, receiptsOf(task)));
  const change = { state: answer.state, task: answer.json, expiresAt: now + ctx.keptFor };
  const written = await ctx.tasks.update(taskId, change, now);
  return written ? { kind: "task", json: answer.json } : heldBy(ctx, taskId, now + ctx.claimFor);
}

export function paidSkills<T extends SkillTool>(deps: PaidSkillDeps<T>): PaidSkills {
  const ctx: Skills<T> = {
    ...deps,
    // A task is kept as long as the answer a payment on it buys (PAYMENT_IDENTIFIER_RETENTION_SECONDS).
    keptFor: deps.config.payments.paymentIdentifier.retentionMs,
    // A claim lasts as long as the payment's own deadline, and as long again for settlement to answer.
    claimFor: deps.config.payments.answerTimeoutMs * 2,
  };
  const summaries = [...deps.tools.values()].map(({ tool }) => ({
    name: tool.definition.name,
    description: tool.definition.description,
    price: tool.price.amount,
  }));
  return {
    summaries,
    start: (skill, args, contextId, requestId) => startTask(ctx, skill, args, contextId, requestId),
    pay: (taskId, payload, requestId) => payTask(ctx, taskId, payload, requestId),
    reject: (taskId) => rejectTask(ctx, taskId),
    async get(taskId) {
      const task = await deps.tasks.get(taskId, deps.clock.now());
      const tool = task && deps.tools.get(task.skill);
      if (!task || !tool) return { kind: "not_found" };
      if (task.task !== OFFERED) return { kind: "task", json: task.task };
      const offer = answered(ctx, tool, task, tool.fallback, []);
      return { kind: "task", json: taskAnswer({ kind: "payment_required" }, offer, false).json };
    },
  };
}
