import { randomBytes } from "node:crypto";
import {
  generateKeyPairSigner,
  getAddressDecoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
} from "@solana/kit";
import { describe, expect, it } from "vitest";
import { signSvmPayment } from "../../../../../client/x402/svm.js";
import { parseTransaction } from "./wire.js";

const requirement = {
  scheme: "exact",
  network: "solana-devnet",
  maxAmountRequired: "1000",
  resource: "http://localhost/defi/tvl",
  description: "Chain TVL",
  mimeType: "application/json",
  payTo: "AkYm62sgcDoa2ZdUF7w3cPkRfct8F6XRhS75LcvFkPUv",
  maxTimeoutSeconds: 60,
  asset: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU",
  extra: { feePayer: "J9Pd8fXB12ipb8dqRuQPpPXbd3V8mrLJwrN54HARLa6h" },
} as const;

async function sampleWire(memo?: string) {
  const payer = await generateKeyPairSigner();
  const header = await signSvmPayment(payer, requirement, {
    blockhash: getAddressDecoder().decode(randomBytes(32)),
    memo,
  });
  return JSON.parse(Buffer.from(header, "base64").toString()).payload.transaction as string;
}

describe("parseTransaction", () => {
  it("reads what @solana/kit's decoders read", async () => {
    const wire = await sampleWire("m");
    const ours = parseTransaction(Buffer.from(wire, "base64"));
    const kitTx = getTransactionDecoder().decode(getBase64Encoder().encode(wire));
    const kitMessage = getCompiledTransactionMessageDecoder().decode(kitTx.messageBytes) as unknown as {
      staticAccounts: string[];
      header: { numSignerAccounts: number };
      instructions: { programAddressIndex: number; accountIndices?: number[]; data?: Uint8Array }[];
    };
    expect(Buffer.from(ours.messageBytes).equals(Buffer.from(kitTx.messageBytes as unknown as Uint8Array))).toBe(true);
    expect(ours.version).toBe(0);
    expect(ours.numRequiredSignatures).toBe(kitMessage.header.numSignerAccounts);
    expect(ours.accountKeys.map((k) => getAddressDecoder().decode(k))).toEqual(kitMessage.staticAccounts);
    expect(ours.instructions.map((ix) => [ix.programIndex, ix.accounts, [...ix.data]])).toEqual(
      kitMessage.instructions.map((ix) => [ix.programAddressIndex, ix.accountIndices ?? [], [...(ix.data ?? [])]]),
    );
    expect(ours.instructions).toHaveLength(4);
  });

  it("throws on truncated, padded or inconsistent input", async () => {
    const bytes = Buffer.from(await sampleWire(), "base64");
    expect(() => parseTransaction(bytes.subarray(0, bytes.length - 1))).toThrow(RangeError);
    expect(() => parseTransaction(Buffer.concat([bytes, Buffer.from([0])]))).toThrow(/trailing/);
    const wrongCount = Buffer.from(bytes);
    wrongCount[0] = 1;
    expect(() => parseTransaction(wrongCount)).toThrow(RangeError);
    expect(() => parseTransaction(new Uint8Array())).toThrow(RangeError);
    expect(() => parseTransaction(Buffer.from([0xff, 0xff, 0xff, 0xff]))).toThrow(RangeError);
  });
});
