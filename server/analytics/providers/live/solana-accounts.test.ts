import { generateKeyPairSync } from "node:crypto";
import { getAddressEncoder, getBase58Decoder, getProgramDerivedAddress } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { fixture } from "../../../../test/support/upstreams.js";
import {
  curveAddresses,
  decodeLaunchLabPool,
  decodeMetadata,
  decodePumpCurve,
  discriminator,
  isOnCurveAddress,
  LAUNCHLAB_PROGRAM,
  METADATA_PROGRAM,
  metadataAddress,
  PUMP_PROGRAM,
  programAddress,
  USDC_MINT,
} from "./solana-accounts.js";

const MINT = "9BB6NFEcjBCtnNLFko2FqVQBq8HHM13kCyYcdQbgpump";
const CREATOR = "7dGbd2QZcCKcTndnHcTL8q7SMVXAkp688NTQYwrRCrar";
type AccountFixture = { result: { value: { data: [string, string] } | { data: [string, string] }[] } };
const bytesOf = (name: string) => {
  const { value } = fixture<AccountFixture>(name).result;
  return new Uint8Array(Buffer.from((Array.isArray(value) ? value[0] : value)?.data[0] ?? "", "base64"));
};

describe("program addresses", () => {
  it("derive the pump.fun Global PDA of the docs, and agree with @solana/kit", async () => {
    expect(programAddress(["global"], PUMP_PROGRAM)).toBe("4wTV1YmiEkRvAtNtsSGPtUrqRYQMe5SKy2uB4Jjaxnjf");
    const bytes = (address: string) => new Uint8Array(getAddressEncoder().encode(address as never));
    const [mint, wsol, meta] = [MINT, "So11111111111111111111111111111111111111112", METADATA_PROGRAM].map(bytes) as [
      Uint8Array,
      Uint8Array,
      Uint8Array,
    ];
    const kit = async (program: string, seeds: (string | Uint8Array)[]) =>
      (await getProgramDerivedAddress({ programAddress: program as never, seeds }))[0];
    expect(curveAddresses(MINT)).toEqual({
      pump: await kit(PUMP_PROGRAM, ["bonding-curve", mint]),
      launchLab: await kit(LAUNCHLAB_PROGRAM, ["pool", mint, wsol]),
    });
    expect(metadataAddress(MINT)).toBe(await kit(METADATA_PROGRAM, ["metadata", meta, mint]));
  });

  it("tells keys on the curve (wallets) from program-derived addresses", () => {
    for (let i = 0; i < 20; i++) {
      const { publicKey } = generateKeyPairSync("ed25519");
      expect(
        isOnCurveAddress(getBase58Decoder().decode(publicKey.export({ format: "der", type: "spki" }).subarray(12))),
      ).toBe(true);
    }
    expect(isOnCurveAddress(curveAddresses(MINT).pump)).toBe(false);
  });

  it("computes Anchor discriminators (the BondingCurve one of the docs)", () => {
    expect([...discriminator("BondingCurve")]).toEqual([23, 183, 248, 55, 96, 216, 172, 96]);
  });
});

describe("decodePumpCurve", () => {
  const data = bytesOf("rpc-pump-curve.json");

  it("reads the reserves, the complete flag and the creator from the account layout", () => {
    expect(decodePumpCurve("curve", data)).toEqual({
      kind: "pump",
      address: "curve",
      virtualTokenReserves: 976550561.855907,
      virtualSolReserves: 32.962962961,
      realTokenReserves: 696650561.855907,
      realSolReserves: 2.962962961,
      tokenTotalSupply: 1e9,
      complete: false,
      creator: CREATOR,
    });
  });

  it("reads an old account without creator, a completed curve, and a USDC-quoted curve", () => {
    expect(decodePumpCurve("old", data.subarray(0, 49))?.creator).toBe("11111111111111111111111111111111");
    const done = data.slice();
    done[48] = 1;
    expect(decodePumpCurve("done", done)?.complete).toBe(true);
    const usdc = data.slice();
    usdc.set(getAddressEncoder().encode(USDC_MINT as never), 83);
    expect(decodePumpCurve("usdc", usdc)?.virtualSolReserves).toBe(32962.962961);
  });

  it("refuses other accounts, short data and unknown quote mints", () => {
    expect(decodePumpCurve("x", bytesOf("rpc-launchlab-pool.json"))).toBeUndefined();
    expect(decodePumpCurve("x", data.subarray(0, 40))).toBeUndefined();
    const other = data.slice();
    other.set(getAddressEncoder().encode(MINT as never), 83);
    expect(decodePumpCurve("x", other)).toBeUndefined();
  });
});

describe("decodeLaunchLabPool", () => {
  it("reads the pool with each side's decimals", () => {
    expect(decodeLaunchLabPool("pool", bytesOf("rpc-launchlab-pool.json"))).toEqual({
      kind: "launchlab",
      address: "pool",
      mint: MINT,
      creator: CREATOR,
      status: "trading",
      supply: 1e9,
      totalSellA: 793100000,
      virtualA: 1073025605.596382,
      virtualB: 30.000852951,
      realA: 206900000,
      realB: 42.5,
      totalFundRaisingB: 85,
    });
  });

  it("reads any later status as migrated and refuses other accounts", () => {
    const data = bytesOf("rpc-launchlab-pool.json");
    data[17] = 2;
    expect(decodeLaunchLabPool("pool", data)?.status).toBe("migrated");
    expect(decodeLaunchLabPool("pool", bytesOf("rpc-pump-curve.json"))).toBeUndefined();
  });
});

describe("decodeMetadata", () => {
  it("reads name, symbol and uri without their NUL padding", () => {
    expect(decodeMetadata(MINT, bytesOf("rpc-metadata.json"))).toEqual({
      mint: MINT,
      name: "Fartcoin",
      symbol: "FARTCOIN",
      uri: "https://ipfs.io/ipfs/QmFartcoin",
    });
    expect(decodeMetadata(MINT, bytesOf("rpc-metadata.json").subarray(0, 80))).toBeUndefined();
    expect(decodeMetadata(MINT, new Uint8Array(100))).toBeUndefined();
  });
});
