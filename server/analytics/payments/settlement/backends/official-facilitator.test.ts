// The service with SETTLEMENT=facilitator against the official x402 v1 EVM facilitator (@x402/evm's
// ExactEvmSchemeV1, behind a small node:http front) settling on the local hardhat chain, recovery
// reading the same chain over JSON-RPC. When the facilitator's wait for the receipt fails after the
// transfer was mined, it answers `success: false` with no transaction: the money moved, so the
// payer must get the answer (the chain says so), never a 402 and a freed payment.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { FacilitatorEvmSigner } from "@x402/evm";
import { ExactEvmSchemeV1 } from "@x402/evm/exact/v1/facilitator";
import request from "supertest";
import { createPublicClient, createWalletClient, custom, defineChain, type Hex, verifyTypedData } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signEvmPayment } from "../../../../../client/x402/evm.js";
import { facilitatorSettlement } from "../../../../../test/support/standin-facilitator.js";
import { loadAnalyticsConfig } from "../../../../config/analytics.js";
import { createLogger } from "../../../../http/logger.js";
import { loadAnalyticsContract } from "../../../contract/analytics-contract.js";
import { type AnalyticsService, createAnalyticsService } from "../../../service.js";
import { type LocalChains, startLocalChains } from "./local-chain/index.js";

const contract = loadAnalyticsContract();
const config = loadAnalyticsConfig({}, contract.developmentDefaults);
const payer = privateKeyToAccount(generatePrivateKey());
let chains: LocalChains;
let front: Server;
let service: AnalyticsService;
/** Whether the facilitator's wait for a receipt fails once the transfer is mined (an RPC that dropped the wait). */
let receiptLost = false;

/** The official facilitator with a signer on the local chain (one chain id serves both EVM prefixes there). */
function officialFacilitator(): ExactEvmSchemeV1 {
  const chain = defineChain({
    id: 31337,
    name: "local",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [] } },
  });
  const transport = custom(chains.evm.provider);
  const reader = createPublicClient({ chain, transport, pollingInterval: 20 });
  const relayer = chains.evm.relayer as Hex;
  const writer = createWalletClient({ account: relayer, chain, transport });
  const signer: FacilitatorEvmSigner = {
    getAddresses: () => [relayer],
    readContract: (args) => reader.readContract(args as never),
    verifyTypedData: (args) => verifyTypedData(args as never),
    writeContract: (args) => writer.writeContract(args as never),
    sendTransaction: (args) => writer.sendTransaction(args as never),
    getCode: (args) => reader.getCode(args),
    async waitForTransactionReceipt({ hash }) {
      const receipt = await reader.waitForTransactionReceipt({ hash });
      if (receiptLost) throw new Error(`Timed out while waiting for transaction with hash "${hash}" to be confirmed.`);
      return receipt;
    },
  };
  return new ExactEvmSchemeV1(signer);
}

beforeAll(async () => {
  chains = await startLocalChains({ config, rpc: true });
  await chains.fund("base-sepolia", payer.address, 1_000_000n);
  const facilitator = officialFacilitator();
  front = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", async () => {
      const reply = (body: unknown) =>
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
      if (req.url?.endsWith("/supported"))
        return reply({
          kinds: [
            { x402Version: 1, scheme: "exact", network: chains.svm.network, extra: { feePayer: chains.feePayer } },
          ],
        });
      const { paymentPayload, paymentRequirements } = JSON.parse(raw);
      // a throw outside the facilitator's own catch (its reads of the chain) is its 500, as a server's would be
      await facilitator.settle(paymentPayload, paymentRequirements).then(reply, () => res.writeHead(500).end());
    });
  });
  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
  const env = {
    ...facilitatorSettlement(chains, `http://127.0.0.1:${(front.address() as AddressInfo).port}`),
    FACILITATOR_TIMEOUT_MS: "2000",
    RECOVERY_INTERVAL_MS: "200",
    LEDGER_DB: ":memory:",
    // compiling the response schemas would only add seconds here
    VALIDATE_RESPONSES: "false",
  };
  service = await createAnalyticsService(loadAnalyticsConfig(env, contract.developmentDefaults), {
    logger: createLogger("silent"),
  });
});
afterAll(async () => {
  await service?.close();
  front?.closeAllConnections();
  front?.close();
  await chains?.close();
});

const PATH = "/base/defi/tvl";
const signed = async () => signEvmPayment(payer, (await request(service.app).post(PATH).send({})).body.accepts[0]);
const pay = (header: string) => request(service.app).post(PATH).set("X-PAYMENT", header).send({});
const received = () => chains.balanceOf("base-sepolia", config.payTo.evm);
const lastRow = async () => (await service.ledger.rows()).at(-1);

describe("the official x402 facilitator (@x402/evm ExactEvmSchemeV1) on the local chain", () => {
  it("settles a payment: 200, its transaction in the receipt, the money moved once", async () => {
    receiptLost = false;
    const before = await received();
    const res = await pay(await signed());
    expect(res.status).toBe(200);
    const receipt = JSON.parse(Buffer.from(res.headers["x-payment-response"] as string, "base64").toString("utf8"));
    expect(receipt).toMatchObject({
      success: true,
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      payer: payer.address,
    });
    expect(await received()).toBe(before + 1000n);
    expect(await lastRow()).toMatchObject({ status: "settled", transaction: receipt.transaction });
  });

  it("never answers 402 for a payment whose money moved when its receipt was lost: the chain, asked at once, makes it the answer, charged once", async () => {
    receiptLost = true;
    const before = await received();
    const settled = async () => (await service.ledger.rows()).filter((row) => row.status === "settled").length;
    const settledBefore = await settled();
    const header = await signed();
    const first = await pay(header);
    expect(first.status).toBe(200);
    const receipt = JSON.parse(Buffer.from(first.headers["x-payment-response"] as string, "base64").toString("utf8"));
    expect(receipt).toMatchObject({
      success: true,
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      payer: payer.address,
    });
    expect(await received()).toBe(before + 1000n);
    expect(await lastRow()).toMatchObject({ status: "settled", transaction: receipt.transaction, hasAnswer: true });

    // a retry (its answer lost on the way) gets the stored answer and the same receipt, charged once
    receiptLost = false;
    const retry = await pay(header);
    expect(retry.status).toBe(200);
    expect(retry.text).toBe(first.text);
    expect(retry.headers["x-payment-response"]).toBe(first.headers["x-payment-response"]);
    expect(await received()).toBe(before + 1000n);
    expect(await settled()).toBe(settledBefore + 1);
  });
});
