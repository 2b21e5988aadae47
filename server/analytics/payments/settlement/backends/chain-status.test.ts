// Recovery's question (did this payment's money move?) asked of real chains over JSON-RPC: the local
// hardhat and litesvm chains serve the same calls a public Base, SKALE or Solana endpoint does.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { generateKeyPairSigner } from "@solana/kit";
import type { PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signEvmPayment } from "../../../../../client/x402/evm.js";
import { signSvmPayment } from "../../../../../client/x402/svm.js";
import { openAndVerify } from "../../../../../test/support/analytics.js";
import { loadAnalyticsConfig } from "../../../../config/analytics.js";
import { systemClock } from "../../../clock.js";
import { loadAnalyticsContract } from "../../../contract/analytics-contract.js";
import { createExactVerifier } from "../../exact/verifier.js";
import { networkOf, requirementTemplate } from "../../x402/requirements.js";
import type { PaymentRequirements, VerifiedPayment } from "../../x402/types.js";
import type { InterruptedPayment } from "../settlement.js";
import { evmSettlementState, rpcSettlementState, solanaSettlementState } from "./chain-status.js";
import { type LocalChains, startLocalChains } from "./local-chain/index.js";

const contract = loadAnalyticsContract();
const baseConfig = loadAnalyticsConfig({}, contract.developmentDefaults);
let chains: LocalChains;
let config: typeof baseConfig;
let state: ReturnType<typeof rpcSettlementState>;

const routeOf = (prefix: string) =>
  contract.paid.find((r) => r.payment.network.prefix === prefix && r.name === "defiTvl" && !r.legacy);
beforeAll(async () => {
  chains = await startLocalChains({ config: baseConfig, rpc: true });
  config = { ...baseConfig, feePayer: chains.feePayer };
  const networks = ["", "/base"].map((prefix) => networkOf(routeOf(prefix) ?? (undefined as never), config));
  // the deployment's own endpoints, as SETTLEMENT_RPC_<NETWORK> names them
  const rpc: Record<string, string> = {
    "base-sepolia": chains.evmRpcUrl as string,
    "solana-devnet": chains.rpcUrl as string,
  };
  state = rpcSettlementState(networks.map((target) => ({ ...target, rpc: rpc[target.network] as string })));
});
afterAll(() => chains?.close());

const requirementFor = (prefix: string): PaymentRequirements => ({
  ...requirementTemplate(routeOf(prefix) ?? (undefined as never), config),
  resource: "http://127.0.0.1/defi/tvl",
});
async function verified(header: string, requirement: PaymentRequirements): Promise<VerifiedPayment> {
  const result = await openAndVerify(createExactVerifier({ config, clock: systemClock }), header, requirement);
  if (!result.ok) throw new Error(`verification failed: ${result.reason}`);
  return result.payment;
}
const interrupted = (p: VerifiedPayment): InterruptedPayment => ({
  network: p.network,
  payer: p.payer,
  payload: p.payload,
  expiresAt: p.expiresAt,
});

describe("EVM: USDC's authorizationState over JSON-RPC", () => {
  it("is open while an authorization is unused and valid, settled (with its transaction) once used, unsettled once the chain passed validBefore", async () => {
    const requirement = requirementFor("/base");
    const payer = privateKeyToAccount(generatePrivateKey());
    await chains.fund(requirement.network, payer.address, 10_000n);
    const payment = await verified(await signEvmPayment(payer, requirement), requirement);
    const lost = await verified(await signEvmPayment(payer, requirement), requirement);
    expect(await state(interrupted(payment))).toMatchObject({ state: "open" });

    const settled = await chains.backend.settle(payment);
    if (!settled.ok) throw new Error(settled.message);
    expect(await state(interrupted(payment))).toEqual({ state: "settled", transaction: settled.transaction });
    expect(await state(interrupted(lost))).toMatchObject({ state: "open" });

    // the chain's own clock passes validBefore: the unused authorization can never be used, the used one stays settled
    const validBefore = Number((lost.payload as { authorization: { validBefore: string } }).authorization.validBefore);
    await chains.evm.provider.request({ method: "evm_mine", params: [validBefore] });
    expect(await state(interrupted(lost))).toMatchObject({ state: "unsettled" });
    expect(await state(interrupted(payment))).toEqual({ state: "settled", transaction: settled.transaction });
  });
});

describe("EVM: a used authorization", () => {
  // USDC's cancelAuthorization also marks the nonce used; the local token has none, so the client is scripted.
  const authorization = {
    from: "0x28C6c06298d514Db089934071355E5743bf21d60",
    nonce: `0x${"ab".repeat(32)}`,
    validBefore: "1",
  };
  const payment = { network: "base-sepolia", payer: authorization.from, payload: { authorization }, expiresAt: 1_000 };
  const chainWith = (logs: { AuthorizationUsed?: string; AuthorizationCanceled?: string }, failLogs = false) =>
    ({
      getBlock: async () => ({ number: 50_000n, timestamp: 2n }),
      readContract: async () => true,
      getLogs: async ({ event }: { event: { name: "AuthorizationUsed" | "AuthorizationCanceled" } }) => {
        if (failLogs) throw new Error("the RPC endpoint refused the log query");
        const hash = logs[event.name];
        return hash ? [{ transactionHash: hash }] : [];
      },
    }) as unknown as PublicClient;
  const token = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";

  it("is settled only with its AuthorizationUsed log, unsettled once cancelled, and otherwise left open, never guessed", async () => {
    expect(await evmSettlementState(chainWith({ AuthorizationUsed: "0xfeed" }), token, payment)).toEqual({
      state: "settled",
      transaction: "0xfeed",
    });
    expect(await evmSettlementState(chainWith({ AuthorizationCanceled: "0xdead" }), token, payment)).toEqual({
      state: "unsettled",
      why: "the payer cancelled the authorization",
    });
    expect(await evmSettlementState(chainWith({}), token, payment)).toMatchObject({ state: "open" });
    await expect(evmSettlementState(chainWith({}, true), token, payment)).rejects.toThrow(/refused the log query/);
  });
});

describe("Solana: the payer's transactions and the blockhash over JSON-RPC", () => {
  it("is open before the transaction lands, settled (with its signature) after, unsettled once its blockhash expired unlanded", async () => {
    const requirement = requirementFor("");
    const signer = await generateKeyPairSigner();
    await chains.fund(requirement.network, signer.address, 10_000n);
    // (the same signer, blockhash and transfer would make the same transaction: the memo tells them apart)
    const sign = async (memo: string) =>
      verified(await signSvmPayment(signer, requirement, { blockhash: chains.latestBlockhash(), memo }), requirement);
    const landed = await sign("landed");
    const lost = await sign("lost");
    expect(await state(interrupted(landed))).toMatchObject({ state: "open" });

    const settled = await chains.backend.settle(landed);
    if (!settled.ok) throw new Error(settled.message);
    expect(await state(interrupted(landed))).toEqual({ state: "settled", transaction: settled.transaction });
    expect(await state(interrupted(lost))).toMatchObject({ state: "open" });

    chains.svm.litesvm.expireBlockhash();
    expect(await state(interrupted(lost))).toMatchObject({ state: "unsettled" });
    expect(await state(interrupted(landed))).toEqual({ state: "settled", transaction: settled.transaction });
  });
});

describe("Solana: a payer with many transactions since the payment", () => {
  /**
   * A JSON-RPC endpoint serving `history` (newest first) as the payer's transactions, each landing `wire`, with a
   * blockhash expired at every commitment unless `validAt` says otherwise.
   */
  async function endpoint(
    history: { signature: string; wire: string; blockTime: number }[],
    validAt: (commitment: unknown) => boolean = () => false,
  ) {
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        const { id, method, params } = JSON.parse(body) as {
          id: number;
          method: string;
          params: [string, Record<string, unknown>?];
        };
        const options = params[1] ?? {};
        const start = options.before ? history.findIndex((h) => h.signature === options.before) + 1 : 0;
        const result =
          method === "isBlockhashValid"
            ? { context: { slot: 1 }, value: validAt(options.commitment) }
            : method === "getSignaturesForAddress"
              ? history.slice(start, start + Number(options.limit)).map((h) => ({
                  signature: h.signature,
                  slot: 1,
                  err: null,
                  memo: null,
                  blockTime: h.blockTime,
                  confirmationStatus: "confirmed",
                }))
              : (() => {
                  const h = history.find((entry) => entry.signature === params[0]);
                  return (
                    h && {
                      slot: 1,
                      blockTime: h.blockTime,
                      meta: { err: null, fee: 5000 },
                      transaction: [h.wire, "base64"],
                    }
                  );
                })();
        res.setHeader("content-type", "application/json").end(JSON.stringify({ jsonrpc: "2.0", id, result }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
  }

  it("pages back through them to the payment's transaction, stops at its admission, and stays open past its limit", async () => {
    const requirement = requirementFor("");
    const signer = await generateKeyPairSigner();
    const sign = async (memo: string) =>
      verified(await signSvmPayment(signer, requirement, { blockhash: chains.latestBlockhash(), memo }), requirement);
    const payment = interrupted(await sign("paid"));
    const other = (interrupted(await sign("other")).payload as { transaction: string }).transaction;
    const paid = (payment.payload as { transaction: string }).transaction;
    const admittedAt = 1_800_000_000;
    const later = (n: number, wire: string) => ({
      signature: String(n).padStart(64, "1"),
      wire,
      blockTime: admittedAt + 10,
    });

    // the payment's transaction behind 150 later ones: found on the second page
    const deep = await endpoint([...Array.from({ length: 150 }, (_, i) => later(i + 2, other)), later(999, paid)]);
    expect(await solanaSettlementState(deep.url, { ...payment, createdAt: admittedAt * 1000 })).toEqual({
      state: "settled",
      transaction: later(999, paid).signature,
    });
    deep.close();

    // not among those since its admission (the next one is older): it never landed
    const older = { signature: "9".repeat(64), wire: paid, blockTime: admittedAt - 3_600 };
    const missed = await endpoint([...Array.from({ length: 150 }, (_, i) => later(i + 2, other)), older]);
    expect(await solanaSettlementState(missed.url, { ...payment, createdAt: admittedAt * 1000 })).toMatchObject({
      state: "unsettled",
    });
    missed.close();

    // more later transactions than the search reads: not known, so not released
    const busy = await endpoint(Array.from({ length: 1_050 }, (_, i) => later(i + 2, other)));
    expect(await solanaSettlementState(busy.url, { ...payment, createdAt: admittedAt * 1000 })).toMatchObject({
      state: "open",
    });
    busy.close();
  });

  it("keeps open a payment whose blockhash expired at the processed tip but not yet at the confirmed one", async () => {
    const requirement = requirementFor("");
    const signer = await generateKeyPairSigner();
    const payment = interrupted(
      await verified(await signSvmPayment(signer, requirement, { blockhash: chains.latestBlockhash() }), requirement),
    );
    // its transaction may sit in a last valid block not yet confirmed, where a confirmed search cannot see it
    const tip = await endpoint([], (commitment) => commitment !== "processed");
    expect(await solanaSettlementState(tip.url, payment)).toMatchObject({ state: "open" });
    tip.close();
    const past = await endpoint([]);
    expect(await solanaSettlementState(past.url, payment)).toMatchObject({ state: "unsettled" });
    past.close();
  });
});
