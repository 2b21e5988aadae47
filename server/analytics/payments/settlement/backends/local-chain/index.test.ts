// Real settlement on the in-process chains: payments signed with the client helpers and passed by the
// strict verifier move balances; replays, overdrafts and expired authorizations fail on the chain itself.
import {
  type Address,
  createSolanaRpc,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getTransactionDecoder,
} from "@solana/kit";
import { fetchMint, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signEvmPayment } from "../../../../../../client/x402/evm.js";
import { signSvmPayment } from "../../../../../../client/x402/svm.js";
import { openAndVerify } from "../../../../../../test/support/analytics.js";
import { loadAnalyticsConfig } from "../../../../../config/analytics.js";
import { systemClock } from "../../../../clock.js";
import { loadAnalyticsContract } from "../../../../contract/analytics-contract.js";
import { createExactVerifier } from "../../../exact/verifier.js";
import { requirementTemplate } from "../../../x402/requirements.js";
import type { PaymentRequirements, VerifiedPayment } from "../../../x402/types.js";
import { type LocalChains, startLocalChains } from "./index.js";

const contract = loadAnalyticsContract();
const baseConfig = loadAnalyticsConfig({}, contract.developmentDefaults);
let chains: LocalChains;
let config: typeof baseConfig;

beforeAll(async () => {
  chains = await startLocalChains({ config: baseConfig, rpc: true });
  config = { ...baseConfig, feePayer: chains.feePayer };
});
afterAll(() => chains?.close());

const requirementFor = (prefix: string): PaymentRequirements => {
  const route = contract.paid.find((r) => r.payment.network.prefix === prefix && r.name === "defiTvl" && !r.legacy);
  if (!route) throw new Error(`no defiTvl route on "${prefix}"`);
  return { ...requirementTemplate(route, config), resource: `http://127.0.0.1${route.path}` };
};

/** Runs the service's own verifier, as the gate does before settlement. */
async function verified(header: string, requirement: PaymentRequirements): Promise<VerifiedPayment> {
  const verifier = createExactVerifier({ config, clock: systemClock });
  const result = await openAndVerify(verifier, header, requirement);
  if (!result.ok) throw new Error(`verification failed: ${result.reason} (${result.message})`);
  return result.payment;
}

describe("local-chain settlement on EVM (hardhat, MiniUSDC at the real USDC addresses)", () => {
  for (const prefix of ["/base", "/skale"]) {
    it(`settles a ${prefix} payment: the payer loses the amount, payTo gains it; a replay reverts on chain`, async () => {
      const requirement = requirementFor(prefix);
      const payer = privateKeyToAccount(generatePrivateKey());
      const amount = BigInt(requirement.maxAmountRequired);
      await chains.fund(requirement.network, payer.address, 5n * amount);
      const payToBefore = await chains.balanceOf(requirement.network, requirement.payTo);
      const payment = await verified(await signEvmPayment(payer, requirement), requirement);

      const settled = await chains.backend.settle(payment);
      expect(settled).toMatchObject({
        ok: true,
        simulated: false,
        transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      });
      expect(await chains.balanceOf(requirement.network, payer.address)).toBe(4n * amount);
      expect(await chains.balanceOf(requirement.network, requirement.payTo)).toBe(payToBefore + amount);

      expect(await chains.backend.settle(payment)).toMatchObject({
        ok: false,
        reason: "invalid_exact_evm_nonce_already_used",
      });
      expect(await chains.balanceOf(requirement.network, payer.address)).toBe(4n * amount);
    });
  }

  it("settles concurrent payments: the node assigns the relayer's nonces", async () => {
    const requirement = requirementFor("/base");
    const payers = Array.from({ length: 5 }, () => privateKeyToAccount(generatePrivateKey()));
    await Promise.all(
      payers.map((payer) => chains.fund(requirement.network, payer.address, BigInt(requirement.maxAmountRequired))),
    );
    const payments = await Promise.all(
      payers.map(async (payer) => verified(await signEvmPayment(payer, requirement), requirement)),
    );
    const results = await Promise.all(payments.map((payment) => chains.backend.settle(payment)));
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    for (const payer of payers) expect(await chains.balanceOf(requirement.network, payer.address)).toBe(0n);
  });

  it("refuses an authorization the payer cannot cover with insufficient_funds", async () => {
    const requirement = requirementFor("/base");
    const payment = await verified(
      await signEvmPayment(privateKeyToAccount(generatePrivateKey()), requirement),
      requirement,
    );
    expect(await chains.backend.settle(payment)).toMatchObject({ ok: false, reason: "insufficient_funds" });
  });

  it("refuses an authorization that expired between verification and settlement with payment_expired", async () => {
    const requirement = requirementFor("/skale");
    const payer = privateKeyToAccount(generatePrivateKey());
    await chains.fund(requirement.network, payer.address, 10n ** 6n);
    const payment = await verified(await signEvmPayment(payer, requirement), requirement);
    const { authorization } = payment.payload as { authorization: Record<string, string> };
    const expired = {
      ...payment,
      payload: { ...(payment.payload as object), authorization: { ...authorization, validBefore: "1" } },
    };
    expect(await chains.backend.settle(expired)).toMatchObject({ ok: false, reason: "payment_expired" });
  });

  it("keeps the SKALE and Base tokens apart, and funds throwaway wallets with ETH", async () => {
    const owner = privateKeyToAccount(generatePrivateKey()).address;
    await chains.fund("base-sepolia", owner, 7n);
    expect(await chains.balanceOf("base-sepolia", owner)).toBe(7n);
    expect(await chains.balanceOf("skale-base-sepolia", owner)).toBe(0n);
    await chains.evm.fundEth(owner, 10n ** 18n);
    expect(await chains.evm.provider.request({ method: "eth_getBalance", params: [owner, "latest"] })).toBe(
      "0xde0b6b3a7640000",
    );
  });
});

describe("local-chain settlement on Solana (litesvm, the USDC mint at the devnet address)", () => {
  const requirement = () => requirementFor("");

  it("settles a payment: the fee payer co-signs, the payer loses the amount, payTo gains it; a resend is refused", async () => {
    const payer = await generateKeyPairSigner();
    const amount = BigInt(requirement().maxAmountRequired);
    await chains.fund("solana-devnet", payer.address, 3n * amount);
    const payToBefore = await chains.balanceOf("solana-devnet", config.payTo.svm);
    const payment = await verified(
      await signSvmPayment(payer, requirement(), { blockhash: chains.latestBlockhash() }),
      requirement(),
    );

    expect(await chains.backend.settle(payment)).toMatchObject({ ok: true, simulated: false });
    expect(await chains.balanceOf("solana-devnet", payer.address)).toBe(2n * amount);
    expect(await chains.balanceOf("solana-devnet", config.payTo.svm)).toBe(payToBefore + amount);

    expect(await chains.backend.settle(payment)).toMatchObject({ ok: false, reason: "duplicate_settlement" });
    expect(await chains.balanceOf("solana-devnet", payer.address)).toBe(2n * amount);
  });

  it("refuses a transfer above the payer's balance with insufficient_funds, and one from a wallet without USDC", async () => {
    const poor = await generateKeyPairSigner();
    await chains.fund("solana-devnet", poor.address, 1n);
    const sign = async (signer: typeof poor) =>
      verified(await signSvmPayment(signer, requirement(), { blockhash: chains.latestBlockhash() }), requirement());
    expect(await chains.backend.settle(await sign(poor))).toMatchObject({ ok: false, reason: "insufficient_funds" });
    expect(await chains.backend.settle(await sign(await generateKeyPairSigner()))).toMatchObject({
      ok: false,
      reason: "invalid_exact_svm_payload_transaction_sender_ata_not_found",
    });
  });

  it("funds throwaway wallets with SOL, and its RPC stand-in serves the mint as x402 clients read it", async () => {
    const wallet = await generateKeyPairSigner();
    chains.svm.fundSol(wallet.address, 2_000_000n);
    expect(chains.svm.litesvm.getBalance(wallet.address)).toBe(2_000_000n);
    const mint = await fetchMint(createSolanaRpc(chains.rpcUrl as string), chains.svm.mint as Address);
    expect(mint).toMatchObject({ programAddress: TOKEN_PROGRAM_ADDRESS, data: { decimals: 6 } });
  });

  it("still checks signatures after the stand-in simulated an unsigned transaction for a client", async () => {
    const payer = await generateKeyPairSigner();
    await chains.fund("solana-devnet", payer.address, 10n ** 6n);
    const payment = await verified(
      await signSvmPayment(payer, requirement(), { blockhash: chains.latestBlockhash() }),
      requirement(),
    );
    const { transaction } = payment.payload as { transaction: string };
    const simulate = {
      jsonrpc: "2.0",
      id: 1,
      method: "simulateTransaction",
      params: [transaction, { encoding: "base64", sigVerify: false }],
    };
    const estimate = (await (
      await fetch(chains.rpcUrl as string, { method: "POST", body: JSON.stringify(simulate) })
    ).json()) as {
      result: { value: unknown };
    };
    expect(estimate.result.value).toMatchObject({ err: null, unitsConsumed: expect.any(Number) });

    const tx = getTransactionDecoder().decode(getBase64Encoder().encode(transaction));
    const forged = Uint8Array.from(tx.signatures[payer.address] as Uint8Array);
    forged[0] = (forged[0] as number) ^ 0xff;
    const wire = getBase64EncodedWireTransaction({
      ...tx,
      signatures: { ...tx.signatures, [payer.address]: forged },
    } as typeof tx);
    expect(await chains.backend.settle({ ...payment, payload: { transaction: wire } })).toMatchObject({
      ok: false,
      reason: "invalid_exact_svm_payload_transaction_signature",
    });
    expect(await chains.balanceOf("solana-devnet", payer.address)).toBe(10n ** 6n);
  });
});
