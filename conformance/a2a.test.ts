// a2a_skills: the paid operations as A2A v1.0 skills, on every target, spoken by hand (a2a-client.ts) at the URL of
// the agent card's JSON-RPC 1.0 interface. A message of text only is answered with a message listing every paid
// operation as a skill, uncharged; a skill called without the x402 extension activated is the JSON-RPC error -32008;
// an unknown skill -32602 naming the field; bad arguments fail the task naming the field, asking for no payment. For
// each paid operation on each selected prefix's network, x402's A2A transport: the task asks for payment
// (`TASK_STATE_INPUT_REQUIRED`, `payment-required`, a v2 PaymentRequired offering that network); paid, it completes
// with the envelope as its artifact (valid against the operation's 200 schema) and a successful receipt on that
// network; the same payment again gets the same artifact, and GetTask the same task (charged once, in-process); a
// payment that does not pay is refused on the task, which asks again (`payment-failed`, `x402.payment.error`, a fresh
// PaymentRequired naming the same error). GetTask of an unknown task is -32001, an unsupported method (ListTasks)
// -32004, an unknown one -32601.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect } from "vitest";
import {
  A2A_ERROR,
  type A2aAnswer,
  type A2aOptions,
  a2aEndpointOf,
  a2aRequest,
  dataOf,
  paymentMessage,
  skillCall,
  TASK_STATE,
  type Task,
  userMessage,
  x402Of,
} from "./a2a-client.js";
import { DOCS, negativeCases, type PaidCase, paidCases, title } from "./cases.js";
import { newRequestId, useCharges } from "./charges.js";
import { Findings, type PaymentRequiredV2 } from "./checks.js";
import { operationName } from "./discovery-checks.js";
import { createPayer, paymentPayload, requirementOn } from "./payer.js";
import { createResponseValidator } from "./schema-validator.js";
import { caseTest, settings, useTarget } from "./suite.js";
import { ALL_PREFIXES } from "./targets.js";

const CHECK = "a2a_skills";
const url = useTarget({ analytics: true });
const pay = await createPayer();
const contract = createResponseValidator(DOCS.analytics);
const checkCharged = useCharges(url.ledgerDb);
const cases = paidCases(settings.prefixes).filter((c) => !c.legacy);
/** Every paid operation's name: the skills the agent sells, whichever prefixes are selected. */
const OPERATIONS = [...new Set(paidCases(ALL_PREFIXES).map(operationName))].sort();
/** The global checks' row and column in the summary table. */
const ENDPOINT = { row: "POST /a2a", column: "free" };

let endpoint: string;
beforeAll(async () => {
  endpoint = await a2aEndpointOf(url("analyticsUrl"), settings.timeoutMs);
});

const request = (method: string, params: Record<string, unknown>, options?: A2aOptions) =>
  a2aRequest(endpoint, settings.timeoutMs, method, params, options);

/** A result of JSON-RPC carrying the request's id; `what` labels the failure. */
function expectResult(answer: A2aAnswer, what: string) {
  expect(answer.error, `${what}: ${JSON.stringify(answer.error)}`).toBeUndefined();
  expect(answer.status, what).toBe(200);
  expect(answer.answeredId, `${what}: the request's id`).toBe(answer.id);
  return answer.result;
}

/** A JSON-RPC error of `code` carrying the request's id. */
function expectError(answer: A2aAnswer, code: number, what: string) {
  expect(answer.error?.code, `${what}: ${JSON.stringify(answer.error ?? answer.result)}`).toBe(code);
  expect(answer.answeredId, `${what}: the request's id`).toBe(answer.id);
  return answer.error;
}

/** The task a `SendMessage` answered. */
async function sent(params: Record<string, unknown>, what: string, options?: A2aOptions): Promise<Task> {
  const task = expectResult(await request("SendMessage", params, options), what)?.task as Task | undefined;
  expect(task?.id, `${what}: a task`).toEqual(expect.any(String));
  return task as Task;
}

/** The case's skill's task, started with the case's example arguments. */
const startTask = (c: PaidCase) =>
  sent(skillCall(operationName(c), c.request.body ?? {}), `${c.label}: the skill's task`);

/** The task asks for payment (`status`), with a v2 PaymentRequired offering the case's network; returns it. */
function expectAsking(task: Task, c: PaidCase, status: string, what: string): PaymentRequiredV2 {
  const x402 = x402Of(task);
  expect(task.status?.state, `${what}: ${JSON.stringify(task.status)}`).toBe(TASK_STATE.inputRequired);
  expect(x402.status, what).toBe(status);
  expect(x402.required?.x402Version, `${what}: x402.payment.required`).toBe(2);
  expect(
    requirementOn(x402.required as PaymentRequiredV2, c),
    `${what}: a requirement on ${c.prefix.name}`,
  ).toBeDefined();
  return x402.required as PaymentRequiredV2;
}

/** The case's task started and its payment signed: the task, and the payment of the case's network. */
async function payable(c: PaidCase) {
  const task = await startTask(c);
  const required = expectAsking(task, c, "payment-required", `${c.label}: unpaid`);
  return { task, payment: await paymentPayload(pay, required, c) };
}

describe(`A2A skills on ${settings.kind}`, () => {
  caseTest(
    title(ENDPOINT, `${CHECK}: a message of text only lists every paid operation, uncharged`),
    "a2a",
    async () => {
      const requestId = newRequestId("a2a-text");
      const params = userMessage([{ text: "What can you do?" }]);
      const message = expectResult(await request("SendMessage", params, { extension: false, requestId }), "text only")
        ?.message as { role?: string; parts?: { data?: unknown }[] } | undefined;
      expect(message?.role, "an agent's message").toBe("ROLE_AGENT");
      const listed = dataOf(message?.parts).flatMap((data) => (data as { skills?: { name?: string }[] }).skills ?? []);
      expect([...new Set(listed.map((skill) => skill.name))].sort(), "the skills listed").toEqual(OPERATIONS);
      const f = new Findings("text only");
      await checkCharged(f, requestId, { status: 200, delivered: false });
      f.assert();
    },
  );

  caseTest(title(ENDPOINT, `${CHECK}: a skill call without the x402 extension is -32008`), "a2a", async () => {
    const answer = await request("SendMessage", skillCall(OPERATIONS[0] as string, {}), { extension: false });
    expectError(answer, A2A_ERROR.extensionSupportRequired, "no A2A-Extensions");
  });

  caseTest(title(ENDPOINT, `${CHECK}: an unknown skill is -32602 naming the field`), "a2a", async () => {
    const error = expectError(
      await request("SendMessage", skillCall("noSuchSkill", {})),
      A2A_ERROR.invalidParams,
      "an unknown skill",
    );
    expect(JSON.stringify(error), "the field named").toContain("message.parts[0].data.skill");
  });

  const bad = negativeCases(settings.prefixes).find((n) => n.paid && !n.paid.legacy && n.mutation === "type");
  if (bad?.paid)
    caseTest(
      title(ENDPOINT, `${CHECK}: bad arguments fail the task naming the field (${bad.description})`),
      "a2a",
      async () => {
        const task = await sent(skillCall(operationName(bad.paid as PaidCase), bad.request.body), bad.description);
        expect(task.status?.state, JSON.stringify(task.status)).toBe(TASK_STATE.failed);
        expect(x402Of(task).required, "x402.payment.required").toBeUndefined();
        const named = dataOf(task.status?.message?.parts).flatMap(
          (d) => (d as { errors?: { field?: string }[] }).errors ?? [],
        );
        expect(
          named.map((e) => e.field),
          "the fields named",
        ).toContain(bad.field);
      },
    );

  caseTest(title(ENDPOINT, `${CHECK}: GetTask of an unknown task is -32001`), "a2a", async () => {
    expectError(await request("GetTask", { id: randomUUID() }), A2A_ERROR.taskNotFound, "an unknown task");
  });

  caseTest(title(ENDPOINT, `${CHECK}: ListTasks is -32004, an unknown method -32601`), "a2a", async () => {
    expectError(await request("ListTasks", {}), A2A_ERROR.unsupportedOperation, "ListTasks");
    expectError(await request("NoSuchMethod", {}), A2A_ERROR.methodNotFound, "an unknown method");
  });

  for (const c of cases) {
    caseTest(title(c, `${CHECK}: unpaid · input-required, a PaymentRequired on the network`), "a2a", async () => {
      expectAsking(await startTask(c), c, "payment-required", `${c.label}: unpaid`);
    });

    caseTest(
      title(c, `${CHECK}: paid · completed, its artifact and receipt; the same again`),
      ["a2a", "paid"],
      async () => {
        const { task, payment } = await payable(c);
        const requestId = newRequestId("a2a-paid");
        const done = await sent(paymentMessage(task, payment), `${c.label}: paid`, { requestId });
        expect(done.status?.state, `${c.label}: ${JSON.stringify(done.status)}`).toBe(TASK_STATE.completed);
        expect(done.id, `${c.label}: the same task`).toBe(task.id);
        const [artifact] = dataOf(done.artifacts?.[0]?.parts);
        expect(contract.validate("POST", c.template, 200, artifact), `${c.label}: the artifact`).toEqual([]);
        expect(x402Of(done).receipts?.[0], `${c.label}: x402.payment.receipts[0]`).toMatchObject({
          success: true,
          network: payment.accepted.network,
        });
        const againId = newRequestId("a2a-again");
        const again = await sent(paymentMessage(task, payment), `${c.label}: the same payment again`, {
          requestId: againId,
        });
        expect(again.artifacts, `${c.label}: the same payment again`).toEqual(done.artifacts);
        const got = expectResult(await request("GetTask", { id: task.id }), `${c.label}: GetTask`) as Task;
        expect(got, `${c.label}: GetTask`).toMatchObject({
          id: done.id,
          status: { state: TASK_STATE.completed },
          artifacts: done.artifacts,
        });
        const f = new Findings(`${c.label} ${CHECK}`);
        await checkCharged(f, requestId, { status: 200, delivered: true });
        await checkCharged(f, againId, { status: 200, delivered: false });
        f.assert();
      },
    );

    caseTest(title(c, `${CHECK}: refused · payment-failed, the task asks again`), "a2a", async () => {
      const { task, payment } = await payable(c);
      const underpaid = { ...payment, accepted: { ...payment.accepted, amount: "1" } };
      const refused = await sent(paymentMessage(task, underpaid), `${c.label}: underpaid`);
      const required = expectAsking(refused, c, "payment-failed", `${c.label}: underpaid`);
      const { error } = x402Of(refused);
      expect(error, `${c.label}: x402.payment.error`).toEqual(expect.any(String));
      expect(required.error, `${c.label}: x402.payment.required's error`).toBe(error);
    });
  }
});
