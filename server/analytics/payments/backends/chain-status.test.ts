// Recovery's question (did this payment's money move?) asked of real chains over JSON-RPC: the local
// hardhat and litesvm chains serve the same calls a public Base, SKALE or Solana endpoint does.
import { generateKeyPairSigner } from "@solana/kit";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signEvmPayment } from "../../../../client/x402/evm.js";
import { signSvmPayment } from "../../../../client/x402/svm.js";
import { openAndVerify } from "../../../../test/support/analytics.js";
import { systemClock } from "../../clock.js";
import { loadAnalyticsConfig } from "../../config.js";
import { loadAnalyticsContract } from "../../contract.js";
import { networkOf, requirementTemplate } from "../requirements.js";
import type { InterruptedPayment } from "../settlement.js";
import type { PaymentRequirements, VerifiedPayment } from "../types.js";
import { createExactVerifier } from "../verifier.js";
import { rpcSettlementState } from "./chain-status.js";
import { type LocalChains, startLocalChains } from "./local-chain/index.js";

const contract = loadAnalyticsContract();
const baseConfig = loadAnalyticsConfig({}, contract.developmentDefaults);
let chains: LocalChains;
let config: typeof baseConfig;
let state: ReturnType<typeof rpcSettlementState>;

const routeOf = (prefix: string) => contract.paid.find((r) => r.payment.network.prefix === prefix && r.name === "defiTvl" && !r.legacy);
beforeAll(async () => {
  chains = await startLocalChains({ config: baseConfig, rpc: true });
  config = { ...baseConfig, feePayer: chains.feePayer };
  const networks = ["", "/base"].map((prefix) => networkOf(routeOf(prefix) ?? (undefined as never), config));
  // the deployment's own endpoints, as SETTLEMENT_RPC_<NETWORK> names them
  const rpc: Record<string, string> = { "base-sepolia": chains.evmRpcUrl as string, "solana-devnet": chains.rpcUrl as string };
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
