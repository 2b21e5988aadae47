// The strict x402 verifier against valid and adversarial payments on all three prefixes.
import { randomBytes } from "node:crypto";
import {
  type Address,
  createNoopSigner,
  generateKeyPairSigner,
  getAddressDecoder,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type Transaction,
} from "@solana/kit";
import { getSetComputeUnitLimitInstruction } from "@solana-program/compute-budget";
import { getAddress, hashTypedData } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeEach, describe, expect, it } from "vitest";
import { signEvmPayment, TRANSFER_WITH_AUTHORIZATION } from "../../../../client/x402/evm.js";
import { signSvmPayment } from "../../../../client/x402/svm.js";
import { encodePaymentHeader } from "../../../../client/x402/types.js";
import { offerFor, openAndVerify } from "../../../../test/support/analytics.js";
import { loadAnalyticsConfig } from "../../../config/analytics.js";
import { manualClock } from "../../clock.js";
import { loadAnalyticsContract } from "../../contract/analytics-contract.js";
import { type Admission, createPaymentGate, type PaymentGate } from "../gate/gate.js";
import { openSqliteLedger } from "../ledger/sqlite-ledger.js";
import type { LedgerStore } from "../ledger/store.js";
import { ledgerBackend } from "../settlement/settlement.js";
import type { Opened } from "../x402/protocols.js";
import { requirementTemplate } from "../x402/requirements.js";
import type { PaymentRequirements, PaymentVerifier, Verification } from "../x402/types.js";
import { authorizationDigest, domainSeparator } from "./evm/eip3009.js";
import { createExactVerifier } from "./verifier.js";

const contract = loadAnalyticsContract();
const config = loadAnalyticsConfig({}, contract.developmentDefaults);
const NOW = 1_795_300_000;
const route = (path: string) =>
  contract.paid.find((r) => r.path === path && r.method === "post") ?? (undefined as never);
const requirementFor = (path: string): PaymentRequirements => ({
  ...requirementTemplate(route(path), config),
  resource: `https://api.test${path}`,
});
const base = requirementFor("/base/defi/tvl");
const skale = requirementFor("/skale/defi/tvl");
const solana = requirementFor("/defi/tvl");

let ledger: LedgerStore;
let verifier: PaymentVerifier;
let gate: PaymentGate;
beforeEach(() => {
  const clock = manualClock(NOW * 1000);
  ledger = openSqliteLedger(":memory:", { now: () => clock.now() });
  verifier = createExactVerifier({ config, clock });
  const split = (_network: string, amount: bigint) => ({
    service: { address: "s", amount: amount - amount / 10n },
    treasury: { address: "t", amount: amount / 10n },
  });
  gate = createPaymentGate({ verifier, ledger, backend: ledgerBackend, clock, split, answerTimeoutMs: 30_000 });
});

/** An `X-PAYMENT` header opened (a malformed one is a 400 there) and verified. */
const verify = (header: string, requirement: PaymentRequirements) => openAndVerify(verifier, header, requirement);
/** Admission through the gate (opening, verification, then the ledger's reservation), for the request `fingerprint`. */
const admit = (header: string, requirement: PaymentRequirements, fingerprint = "defiTvl {}") =>
  gate.admit({ version: 1, header }, offerFor(requirement), { operation: "defiTvl", requestId: "r1", fingerprint });
const reasonOf = (v: Verification | Admission | Opened) => {
  if ("kind" in v) {
    if (v.kind === "refused" || v.kind === "used") return v.reason;
    return v.kind === "admitted" ? "ok" : v.kind === "malformed" ? "invalid_payload" : v.kind;
  }
  if (v.ok) return "ok";
  return "malformed" in v && v.malformed ? "invalid_payload" : (v as { reason: string }).reason;
};
const account = privateKeyToAccount(generatePrivateKey());

describe("EIP-712 digest", () => {
  it("equals viem's hashTypedData for the same authorization and domain", () => {
    const domain = {
      name: "USDC",
      version: "2",
      chainId: 84532,
      verifyingContract: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
    } as const;
    const message = {
      from: account.address,
      to: getAddress(base.payTo),
      value: 1000n,
      validAfter: 1n,
      validBefore: 2n,
      nonce: `0x${"ab".repeat(32)}` as const,
    };
    const expected = hashTypedData({
      domain,
      types: TRANSFER_WITH_AUTHORIZATION,
      primaryType: "TransferWithAuthorization",
      message,
    });
    expect(`0x${Buffer.from(authorizationDigest(domainSeparator(domain), message)).toString("hex")}`).toBe(expected);
  });
});

describe("EVM exact payments (/base, /skale)", () => {
  const sign = (requirement: PaymentRequirements, options: Parameters<typeof signEvmPayment>[2] = {}) =>
    signEvmPayment(account, requirement, { now: NOW, ...options });

  it("accepts a correct payment on each EVM prefix and names the payer", async () => {
    for (const requirement of [base, skale]) {
      const result = await verify(await sign(requirement), requirement);
      expect(result).toMatchObject({
        ok: true,
        payment: { payer: account.address, amount: "1000", network: requirement.network },
      });
    }
  });

  it("admits a payment once, sequentially or concurrently: exactly one of 50 copies passes, the others are held", async () => {
    const header = await sign(base);
    expect(reasonOf(await admit(header, base))).toBe("ok");
    // the same request again while the first is in progress: told to come back, not refused as a replay
    expect(reasonOf(await admit(header, base))).toBe("held");
    expect(reasonOf(await admit(header, base, "another request"))).toBe("invalid_exact_evm_nonce_already_used");
    const burst = await sign(base);
    const results = await Promise.all(Array.from({ length: 50 }, () => admit(burst, base)));
    expect(results.filter((r) => r.kind === "admitted")).toHaveLength(1);
    expect(results.filter((r) => r.kind === "held")).toHaveLength(49);
  });

  /** A gate over its own clock and ledger, and admission through it for the request `fingerprint`. */
  function clockedGate() {
    const clock = manualClock(NOW * 1000);
    const own = openSqliteLedger(":memory:", { now: () => clock.now() });
    const split = (_network: string, amount: bigint) => ({
      service: { address: "s", amount },
      treasury: { address: "t", amount: 0n },
    });
    const verifier = createExactVerifier({ config, clock });
    const gate = createPaymentGate({
      verifier,
      ledger: own,
      backend: ledgerBackend,
      clock,
      split,
      answerTimeoutMs: 30_000,
    });
    const admitAt = (header: string, fingerprint = "f") =>
      gate.admit({ version: 1, header }, offerFor(base), { operation: "defiTvl", requestId: "r1", fingerprint });
    return { clock, own, short: gate, admitAt };
  }

  it("gives an answer no longer than the authorization is valid: its deadline ends before validBefore", async () => {
    const { clock, own, short, admitAt } = clockedGate();
    const header = await sign(base, { overrides: { validBefore: String(NOW + 8) } });
    const admitted = await admitAt(header);
    if (admitted.kind !== "admitted") throw new Error("expected admission");
    expect(admitted.payment.deadlineAt).toBe((NOW + 8) * 1000 - 2_000);
    // past that deadline, still before validBefore: not settled, not charged
    clock.advance(7_000);
    expect(await short.settle(admitted.payment, { status: 200, body: "{}" })).toEqual({ kind: "late" });
    expect((await own.rows()).map((row) => row.status)).toEqual(["verified"]);
  });

  it("gives a retry its stored answer in the last seconds of the payment's validity, where a new payment is refused", async () => {
    const { clock, short, admitAt } = clockedGate();
    const header = await sign(base, { overrides: { validBefore: String(NOW + 20) } });
    const admitted = await admitAt(header);
    if (admitted.kind !== "admitted") throw new Error("expected admission");
    expect(await short.settle(admitted.payment, { status: 200, body: '{"answer":1}' })).toMatchObject({
      kind: "settled",
    });
    // 4 s of validity left: under the 6 s a new settlement needs
    clock.advance(16_000);
    expect(await admitAt(header)).toMatchObject({ kind: "stored", answer: { status: 200, body: '{"answer":1}' } });
    const tooLate = { kind: "refused", reason: "invalid_exact_evm_payload_authorization_valid_before" };
    expect(await admitAt(header, "another request")).toMatchObject(tooLate);
    expect(await admitAt(await sign(base, { overrides: { validBefore: String(NOW + 20) } }))).toMatchObject(tooLate);
    clock.advance(5_000);
    expect(await admitAt(header)).toMatchObject(tooLate);
  });

  it("lets a released payment (its answer failed, not charged) be used again", async () => {
    const header = await sign(base);
    const first = await admit(header, base);
    if (first.kind !== "admitted") throw new Error("expected admission");
    await gate.release(first.payment, "handler failed");
    expect(reasonOf(await admit(header, base))).toBe("ok");
  });

  it("keys a payment by authorizer and nonce: another wallet's use of the same nonce refuses neither", async () => {
    const nonce = `0x${randomBytes(32).toString("hex")}` as const;
    const other = privateKeyToAccount(generatePrivateKey());
    const mine = await sign(base, { nonce });
    const theirs = await signEvmPayment(other, base, { now: NOW, nonce });
    expect(reasonOf(await admit(theirs, base))).toBe("ok");
    expect(reasonOf(await admit(mine, base))).toBe("ok");
    const keys = (await ledger.rows()).map((row) => row.key);
    expect(keys).toEqual([
      `base-sepolia:${other.address.toLowerCase()}:${nonce}`,
      `base-sepolia:${account.address.toLowerCase()}:${nonce}`,
    ]);
  });

  const cases: [string, () => Promise<string>, string][] = [
    ["a payment for another prefix's network", () => sign(skale), "invalid_network"],
    // String() of this object throws: the reason must still be named, not a 500.
    [
      "a network that is an object",
      async () => rewrite(await sign(base), (p) => ({ ...p, network: { toString: 1 } })),
      "invalid_network",
    ],
    [
      "a payment whose payload claims this network but was signed for another chain",
      async () => swapNetwork(await sign(skale), base.network),
      "invalid_exact_evm_payload_signature",
    ],
    [
      "a wrong payTo",
      () => sign(base, { overrides: { to: "0x000000000000000000000000000000000000dEaD" } }),
      "invalid_exact_evm_payload_recipient_mismatch",
    ],
    [
      "an underpayment",
      () => sign(base, { overrides: { value: "999" } }),
      "invalid_exact_evm_payload_authorization_value",
    ],
    [
      "an overpayment",
      () => sign(base, { overrides: { value: "1001" } }),
      "invalid_exact_evm_payload_authorization_value",
    ],
    [
      "an expired authorization",
      () => sign(base, { overrides: { validBefore: String(NOW + 5) } }),
      "invalid_exact_evm_payload_authorization_valid_before",
    ],
    [
      "a not-yet-valid authorization",
      () => sign(base, { overrides: { validAfter: String(NOW + 1) } }),
      "invalid_exact_evm_payload_authorization_valid_after",
    ],
    [
      "validBefore in milliseconds",
      () => sign(base, { overrides: { validBefore: String((NOW + 60) * 1000) } }),
      "invalid_exact_evm_payload_authorization_valid_before",
    ],
    [
      "a wrong EIP-712 domain",
      () => sign({ ...base, extra: { name: "USD Coin", version: "2" } }),
      "invalid_exact_evm_payload_signature",
    ],
    [
      "a tampered validBefore",
      async () => tamper(await sign(base), (a) => ({ ...a, validBefore: String(Number(a.validBefore) - 1) })),
      "invalid_exact_evm_payload_signature",
    ],
    [
      "a tampered nonce",
      async () => tamper(await sign(base), (a) => ({ ...a, nonce: `0x${"11".repeat(32)}` })),
      "invalid_exact_evm_payload_signature",
    ],
    [
      "a tampered from",
      async () => tamper(await sign(base), (a) => ({ ...a, from: privateKeyToAccount(generatePrivateKey()).address })),
      "invalid_exact_evm_payload_signature",
    ],
    ["a malleated (high-s) signature", async () => malleate(await sign(base)), "invalid_exact_evm_payload_signature"],
    ["a wrong scheme", async () => rewrite(await sign(base), (p) => ({ ...p, scheme: "upto" })), "unsupported_scheme"],
    [
      "a wrong version",
      async () => rewrite(await sign(base), (p) => ({ ...p, x402Version: 2 })),
      "invalid_x402_version",
    ],
    [
      "a payload without an authorization",
      async () => rewrite(await sign(base), (p) => ({ ...p, payload: { signature: "0x00" } })),
      "invalid_payload",
    ],
  ];
  for (const [what, header, reason] of cases) {
    it(`refuses ${what} with ${reason}`, async () => {
      const result = await verify(await header(), base);
      expect(result).toMatchObject({ ok: false, reason });
    });
  }
});

describe("malformed headers", () => {
  const garbage = [
    "",
    "not base64!",
    "e30",
    Buffer.from("[1,2]").toString("base64"),
    Buffer.from("not json").toString("base64"),
    "A".repeat(9000),
    "\u0000\u0001",
  ];
  for (const header of garbage) {
    it(`answers ${JSON.stringify(header.slice(0, 12))}… (${header.length} chars) as malformed (400), on both families`, async () => {
      for (const requirement of [base, solana])
        expect(await verify(header, requirement)).toMatchObject({ ok: false, reason: "invalid_payload" });
    });
  }
});

describe("Solana exact payments (root)", () => {
  const blockhash = () => getAddressDecoder().decode(randomBytes(32));
  let payer: Awaited<ReturnType<typeof generateKeyPairSigner>>;
  beforeEach(async () => {
    payer = await generateKeyPairSigner();
  });
  const sign = (options: Partial<Parameters<typeof signSvmPayment>[2]> = {}, requirement = solana) =>
    signSvmPayment(payer, requirement, { blockhash: blockhash(), ...options });

  it("accepts a correct partially signed transfer and names the payer", async () => {
    expect(await verify(await sign(), solana)).toMatchObject({
      ok: true,
      payment: { payer: payer.address, network: "solana-devnet", amount: "1000" },
    });
  });

  it("accepts a Memo instruction after the transfer, as the newer reference does", async () => {
    const header = await sign({ memo: "invoice 42" });
    expect(decodeTx(header).instructionCount).toBe(4);
    expect(reasonOf(await verify(header, solana))).toBe("ok");
  });

  it("admits the same transaction once, also concurrently: the other copies are held, another request refused", async () => {
    const header = await sign();
    const results = await Promise.all(Array.from({ length: 20 }, () => admit(header, solana)));
    expect(results.filter((r) => r.kind === "admitted")).toHaveLength(1);
    expect(results.filter((r) => r.kind !== "admitted").every((r) => reasonOf(r) === "held")).toBe(true);
    expect(reasonOf(await admit(header, solana, "another request"))).toBe("duplicate_settlement");
  });

  const cases: [string, () => Promise<string>, string][] = [
    [
      "a wrong mint",
      () => sign({ overrides: { mint: getAddressDecoder().decode(randomBytes(32)) } }),
      "invalid_exact_svm_payload_transaction_mint_mismatch",
    ],
    [
      "a wrong destination",
      () => sign({ overrides: { destinationOwner: getAddressDecoder().decode(randomBytes(32)) } }),
      "invalid_exact_svm_payload_transaction_transfer_to_incorrect_ata",
    ],
    [
      "a wrong amount",
      () => sign({ overrides: { amount: 1001n } }),
      "invalid_exact_svm_payload_transaction_amount_mismatch",
    ],
    [
      "wrong decimals",
      () => sign({ overrides: { decimals: 9 } }),
      "invalid_exact_svm_payload_transaction_amount_mismatch",
    ],
    [
      "another fee payer",
      () => sign({ overrides: { feePayer: getAddressDecoder().decode(randomBytes(32)) } }),
      "invalid_exact_svm_payload_transaction_fee_payer_mismatch",
    ],
    [
      "the fee payer as transfer authority",
      () => sign({ overrides: { authority: createNoopSigner(config.feePayer as Address) } }),
      "invalid_exact_svm_payload_transaction_fee_payer_transferring_funds",
    ],
    [
      "an extra instruction that is not Memo or Lighthouse",
      () => sign({ overrides: { extraInstructions: [getSetComputeUnitLimitInstruction({ units: 1 })] } }),
      "invalid_exact_svm_payload_transaction_instructions_length",
    ],
    [
      "more than six instructions",
      () => sign({ memo: "a", overrides: { extraInstructions: [1, 2, 3].map(() => memoInstruction()) } }),
      "invalid_exact_svm_payload_transaction_instructions_length",
    ],
    [
      "a compute-unit limit above the cap (400,000 at 5 lamports a unit is the most a payment may cost the fee payer)",
      () => sign({ computeUnitLimit: 400_001, computeUnitPrice: 5_000_000n }),
      "invalid_exact_svm_payload_transaction_instructions_compute_limit_instruction",
    ],
    [
      "a compute price above the cap",
      () => sign({ computeUnitPrice: 5_000_001n }),
      "invalid_exact_svm_payload_transaction_instructions_compute_price_instruction_too_high",
    ],
    ["a bad signature", async () => corruptSignature(await sign()), "invalid_exact_svm_payload_transaction_signature"],
    ["a payment for the Base prefix", () => sign({}, { ...solana, network: "base-sepolia" }), "invalid_network"],
    [
      "a transaction that does not decode",
      async () =>
        encodePaymentHeader({
          x402Version: 1,
          scheme: "exact",
          network: "solana-devnet",
          payload: { transaction: "AAAA" },
        }),
      "invalid_exact_svm_payload_transaction",
    ],
  ];
  for (const [what, header, reason] of cases) {
    it(`refuses ${what} with ${reason}`, async () => {
      expect(await verify(await header(), solana)).toMatchObject({ ok: false, reason });
    });
  }

  it("accepts the compute-unit limit and price at their caps", async () => {
    expect(await verify(await sign({ computeUnitLimit: 400_000, computeUnitPrice: 5_000_000n }), solana)).toMatchObject(
      { ok: true },
    );
  });
});

// --- helpers that forge payments the way an attacker would ---

function decode(header: string) {
  return JSON.parse(Buffer.from(header, "base64").toString("utf8"));
}

function rewrite(header: string, change: (payload: Record<string, unknown>) => Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(change(decode(header)))).toString("base64");
}

function tamper(header: string, change: (authorization: Record<string, string>) => Record<string, string>): string {
  return rewrite(header, (p) => {
    const inner = p.payload as { signature: string; authorization: Record<string, string> };
    return { ...p, payload: { ...inner, authorization: change(inner.authorization) } };
  });
}

function swapNetwork(header: string, network: string): string {
  return rewrite(header, (p) => ({ ...p, network }));
}

const ORDER = BigInt("0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
function malleate(header: string): string {
  return rewrite(header, (p) => {
    const inner = p.payload as { signature: string; authorization: unknown };
    const sig = inner.signature.slice(2);
    const s = ORDER - BigInt(`0x${sig.slice(64, 128)}`);
    const v = Number.parseInt(sig.slice(128, 130), 16) === 27 ? 28 : 27;
    return {
      ...p,
      payload: { ...inner, signature: `0x${sig.slice(0, 64)}${s.toString(16).padStart(64, "0")}${v.toString(16)}` },
    };
  });
}

function corruptSignature(header: string): string {
  return rewrite(header, (p) => {
    const tx = getTransactionDecoder().decode(
      getBase64Encoder().encode((p.payload as { transaction: string }).transaction),
    ) as Transaction;
    const signatures = Object.fromEntries(
      Object.entries(tx.signatures).map(([address, sig]) => {
        if (!sig) return [address, sig];
        const bytes = Uint8Array.from(sig);
        bytes[0] = (bytes[0] as number) ^ 0xff;
        return [address, bytes];
      }),
    );
    return { ...p, payload: { transaction: getBase64EncodedWireTransaction({ ...tx, signatures } as never) } };
  });
}

function memoInstruction() {
  return {
    programAddress: "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr" as Address,
    data: new TextEncoder().encode("m"),
  };
}

function decodeTx(header: string) {
  const tx = getTransactionDecoder().decode(getBase64Encoder().encode(decode(header).payload.transaction));
  const message = getCompiledTransactionMessageDecoder().decode(tx.messageBytes) as unknown as {
    instructions: unknown[];
  };
  return { instructionCount: message.instructions.length };
}
