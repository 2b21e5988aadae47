// Paid A2A skills as an agent meets them: the official A2A client (`@a2a-js/sdk` 1.x, A2A v1.0) finds the service
// from its base URL (the agent card), lists the skills, and pays one on Solana, Base and SKALE over x402's A2A
// transport (standalone flow), its payloads signed by `@x402/core`'s x402Client with the EVM and SVM schemes: the task
// asks for payment, the payment message on the same task completes it with the envelope and the receipt, a repeat of
// that payment gets the same task, charged once. Refusals, a declined payment and bad arguments are never charged.
import { randomUUID } from "node:crypto";
import { type Message, Role, type Task, TaskState } from "@a2a-js/sdk";
import { type Client, ClientFactory, ServiceParameters, withA2AExtensions } from "@a2a-js/sdk/client";
import { generateKeyPairSigner } from "@solana/kit";
import { x402Client } from "@x402/core/client";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { type JWSSignedReceipt, verifyReceiptSignatureJWS } from "@x402/extensions/offer-receipt";
import { appendPaymentIdentifierToExtensions, generatePaymentId } from "@x402/extensions/payment-identifier";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { X402_EXTENSION_URI } from "../../server/a2a/protocol.js";
import { loadAnalyticsContract } from "../../server/analytics/contract/analytics-contract.js";
import {
  type LocalChains,
  startLocalChains,
} from "../../server/analytics/payments/settlement/backends/local-chain/index.js";
import { loadAnalyticsConfig } from "../../server/config/analytics.js";
import { allowSkaleUsdc, listenDefaults, type Running } from "../support/x402-clients.js";

const contract = loadAnalyticsContract();
const configured = loadAnalyticsConfig({}, contract.developmentDefaults);
const PRICE = BigInt(contract.paid.find((r) => r.name === "defiTvl")?.payment.maxAmountRequired as string);
const OPERATIONS = [...new Set(contract.paid.map((route) => route.name))];
const PAID = { serviceParameters: ServiceParameters.create(withA2AExtensions(X402_EXTENSION_URI)) };

let service: Running;
let chains: LocalChains;
let client: Client;

beforeAll(async () => {
  chains = await startLocalChains({ config: configured, rpc: true });
  // x402's Solana client simulates with the announced fee payer, so the development one needs SOL too.
  chains.svm.fundSol(configured.feePayer, 10n ** 9n);
  service = await listenDefaults();
  client = await new ClientFactory().createFromUrl(service.origin);
});
afterAll(async () => {
  await service?.close();
  await chains?.close();
});

const NETWORKS = { solana: "solana:", base: "eip155:84532", skale: "eip155:324705682" } as const;
type Network = keyof typeof NETWORKS;

/** A payer on `network`: a fresh EVM key, or a fresh Solana key holding USDC (its client reads the token account). */
async function payerOn(network: Network) {
  const payments = allowSkaleUsdc(new x402Client());
  if (network !== "solana")
    payments.register("eip155:*", new ExactEvmScheme(privateKeyToAccount(generatePrivateKey())));
  else {
    const signer = await generateKeyPairSigner();
    await chains.fund("solana-devnet", signer.address, 3n * PRICE);
    payments.register("solana:*", new ExactSvmScheme(signer, { rpcUrl: chains.rpcUrl as string }));
  }
  return (required: PaymentRequired) =>
    payments.createPaymentPayload({
      ...required,
      accepts: required.accepts.filter((a) => a.network.startsWith(NETWORKS[network])),
    });
}

const part = (content: NonNullable<Message["parts"][number]["content"]>) => ({
  content,
  metadata: undefined,
  filename: "",
  mediaType: "",
});

const message = (fields: Partial<Message>): Message => ({
  messageId: randomUUID(),
  contextId: "",
  taskId: "",
  role: Role.ROLE_USER,
  parts: [],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
  ...fields,
});

const send = (sent: Message, options = PAID) =>
  client.sendMessage({ tenant: "", message: sent, configuration: undefined, metadata: undefined }, options);

/** Starts a skill's task. */
async function ask(skill: string, args: Record<string, unknown>) {
  return (await send(message({ parts: [part({ $case: "data", value: { skill, arguments: args } })] }))) as Task;
}

/** Sends a payment (or a refusal to pay) on a task. */
async function pay(task: Task, metadata: Record<string, unknown>) {
  const sent = message({
    taskId: task.id,
    contextId: task.contextId,
    parts: [part({ $case: "text", value: "paying" })],
    metadata,
  });
  return (await send(sent)) as Task;
}

const metaOf = (task: Task) => task.status?.message?.metadata ?? {};
const requiredOf = (task: Task) => metaOf(task)["x402.payment.required"] as PaymentRequired;
const settled = async () => (await service.ledger.rows()).filter((row) => row.status === "settled");

describe("the agent card, as the official client reads it", () => {
  it("names a JSON-RPC interface the client connects to, one skill per paid operation, the x402 extension required", async () => {
    const card = await client.getAgentCard();
    expect(card.supportedInterfaces[0]).toMatchObject({ protocolBinding: "JSONRPC", protocolVersion: "1.0" });
    expect(card.skills.map((skill) => skill.id).sort()).toEqual([...OPERATIONS].sort());
    expect(card.capabilities?.extensions).toContainEqual(
      expect.objectContaining({ uri: X402_EXTENSION_URI, required: true }),
    );
  });
});

describe("a message that pays for nothing", () => {
  it("of text only is answered with the skills and their prices, free", async () => {
    const before = (await service.ledger.rows()).length;
    const reply = (await send(
      message({ parts: [part({ $case: "text", value: "what can you do?" })] }),
      {} as never,
    )) as Message;
    expect(reply.role).toBe(Role.ROLE_AGENT);
    const data = reply.parts.find((p) => p.content?.$case === "data")?.content?.value as { skills: { name: string }[] };
    expect(data.skills.map((s) => s.name).sort()).toEqual([...OPERATIONS].sort());
    expect((await service.ledger.rows()).length).toBe(before);
  });

  it("calling a skill without the x402 extension activated is refused, naming the extension", async () => {
    const call = message({ parts: [part({ $case: "data", value: { skill: "defiTvl", arguments: {} } })] });
    await expect(send(call, {} as never)).rejects.toThrow(/x402 extension/);
  });

  it("calling a skill with 0.x's X-A2A-Extensions header activates the extension too, named back", async () => {
    const res = await fetch(`${service.origin}/a2a`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-a2a-extensions": X402_EXTENSION_URI },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "SendMessage",
        params: {
          message: { messageId: "m", role: "ROLE_USER", parts: [{ data: { skill: "defiTvl", arguments: {} } }] },
        },
      }),
    });
    expect(res.headers.get("a2a-extensions")).toBe(X402_EXTENSION_URI);
    const { id, result } = (await res.json()) as { id: number; result: { task: { status: { state: string } } } };
    expect(id).toBe(7);
    expect(result.task.status.state).toBe("TASK_STATE_INPUT_REQUIRED");
  });

  it("with bad arguments fails its task before any payment is read, naming the field", async () => {
    const task = await ask("defiTvl", { limit: "many" });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    const data = task.status?.message?.parts.find((p) => p.content?.$case === "data")?.content?.value;
    expect(data).toMatchObject({ error: "invalid_request", errors: [expect.objectContaining({ field: "limit" })] });
    expect(metaOf(task)["x402.payment.required"]).toBeUndefined();
  });

  it("naming no skill of the agent is an error naming the field", async () => {
    await expect(ask("noSuchSkill", {})).rejects.toThrow(/message\.parts\[0\]\.data\.skill/);
  });
});

for (const network of Object.keys(NETWORKS) as Network[])
  describe(`a paid skill on ${network}`, () => {
    it("asks for payment, completes with the envelope and the receipt once paid, and is charged once", async () => {
      const task = await ask("defiTvl", { limit: 2 });
      expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(metaOf(task)["x402.payment.status"]).toBe("payment-required");
      const required = requiredOf(task);
      expect(required).toMatchObject({ x402Version: 2 });
      expect(required.accepts.filter((a) => a.network.startsWith(NETWORKS[network]))).toHaveLength(1);
      // as any reader finds it before it is paid: the same offer
      const waiting = await client.getTask({ tenant: "", id: task.id, historyLength: undefined });
      expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(requiredOf(waiting).accepts).toEqual(required.accepts);
      const payload: PaymentPayload = await (await payerOn(network))(required);

      const done = await pay(task, { "x402.payment.status": "payment-submitted", "x402.payment.payload": payload });
      expect(done.status?.state, JSON.stringify(metaOf(done))).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(done.id).toBe(task.id);
      expect(metaOf(done)["x402.payment.status"]).toBe("payment-completed");
      const [receipt] = metaOf(done)["x402.payment.receipts"] as { success: boolean; network: string; payer: string }[];
      expect(receipt).toMatchObject({ success: true, network: payload.accepted.network });
      const envelope = done.artifacts[0]?.parts[0]?.content?.value as Record<string, unknown>;
      expect(envelope).toMatchObject({ data: expect.any(Object), signal: expect.any(String) });

      // the task as any reader finds it, and the same payment again: the same answer, charged once
      expect((await client.getTask({ tenant: "", id: task.id, historyLength: undefined })).artifacts).toEqual(
        done.artifacts,
      );
      const again = await pay(task, { "x402.payment.status": "payment-submitted", "x402.payment.payload": payload });
      expect(again.artifacts).toEqual(done.artifacts);
      expect((await settled()).filter((row) => row.payer === receipt?.payer)).toHaveLength(1);
    });
  });

describe("a payment that does not pay", () => {
  it("is refused naming the x402 reason, the task asks again, and a good payment then completes it", async () => {
    const task = await ask("defiTvl", { limit: 1 });
    const payload = await (await payerOn("base"))(requiredOf(task));
    const tampered = { ...payload, accepted: { ...payload.accepted, amount: "1" } };
    const refused = await pay(task, { "x402.payment.status": "payment-submitted", "x402.payment.payload": tampered });
    expect(refused.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(metaOf(refused)["x402.payment.status"]).toBe("payment-failed");
    expect(metaOf(refused)["x402.payment.error"]).toEqual(expect.any(String));
    expect(requiredOf(refused).error).toBe(metaOf(refused)["x402.payment.error"]);
    const done = await pay(task, { "x402.payment.status": "payment-submitted", "x402.payment.payload": payload });
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it("declined by the payer cancels the task, and the task takes no payment after", async () => {
    const task = await ask("defiTvl", { limit: 1 });
    const payload = await (await payerOn("base"))(requiredOf(task));
    const declined = await pay(task, { "x402.payment.status": "payment-rejected" });
    expect(declined.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(metaOf(declined)["x402.payment.status"]).toBe("payment-rejected");
    await expect(
      pay(task, { "x402.payment.status": "payment-submitted", "x402.payment.payload": payload }),
    ).rejects.toThrow(/is over/);
    const from = (payload.payload.authorization as { from: string }).from;
    expect((await settled()).filter((row) => row.payer === from)).toHaveLength(0);
  });

  it("on a task that does not exist is the A2A error for it", async () => {
    const ghost = { id: randomUUID(), contextId: "" } as Task;
    await expect(pay(ghost, { "x402.payment.status": "payment-rejected" })).rejects.toThrow(/No task/);
  });
});

describe("asking about a skill's purchase", () => {
  it("by its payment-identifier answers settled with the very receipt the completed task carries", async () => {
    const task = await ask("defiTvl", { limit: 3 });
    const payload = await (await payerOn("base"))(requiredOf(task));
    const id = generatePaymentId();
    payload.extensions = appendPaymentIdentifierToExtensions(payload.extensions ?? {}, id);
    const done = await pay(task, { "x402.payment.status": "payment-submitted", "x402.payment.payload": payload });
    expect(done.status?.state, JSON.stringify(metaOf(done))).toBe(TaskState.TASK_STATE_COMPLETED);
    const [carried] = metaOf(done)["x402.payment.receipts"] as {
      transaction: string;
      extensions: { "offer-receipt": { info: { receipt: JWSSignedReceipt } } };
    }[];

    const res = await fetch(`${service.origin}/base/payments/${id}`);
    const status = (await res.json()) as { status: string; transaction: string; receipt: JWSSignedReceipt };
    expect(res.status, JSON.stringify(status)).toBe(200);
    expect(status).toMatchObject({ status: "settled", transaction: carried?.transaction });
    expect(status.receipt).toEqual(carried?.extensions["offer-receipt"].info.receipt);
    const did = (await (await fetch(`${service.origin}/.well-known/did.json`)).json()) as {
      verificationMethod: { publicKeyJwk: NonNullable<Parameters<typeof verifyReceiptSignatureJWS>[1]> }[];
    };
    const signed = await verifyReceiptSignatureJWS(status.receipt, did.verificationMethod[0]?.publicKeyJwk as never);
    expect(signed).toMatchObject({ resourceUrl: "a2a:/a2a#defiTvl" });
  });
});
