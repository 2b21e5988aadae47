// The rules of inputs beyond their schemas, as pure functions (the app test checks they run before the payment).
import { describe, expect, it } from "vitest";
import { loadAnalyticsContract, type PaidRoute } from "../contract/analytics-contract.js";
import { inputRules, solanaAddressErrors } from "./input-rules.js";

const JUP = "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN";
const FAMOUS = "0x28C6c06298d514Db089934071355E5743bf21d60";
const fieldOf = (error: { field: string } | { field: string }[] | undefined) =>
  error === undefined ? undefined : [error].flat().map((e) => e.field);

describe("input rules", () => {
  it("refuse a maximum market cap below the minimum, but not an equal one or either alone", () => {
    const rule = inputRules.smartmoneyTokenScreener as NonNullable<typeof inputRules.smartmoneyTokenScreener>;
    expect(fieldOf(rule({ market_cap_min: 2e9, market_cap_max: 1e9 }))).toEqual(["market_cap_max"]);
    expect(rule({ market_cap_min: 1e9, market_cap_max: 1e9 })).toBeUndefined();
    expect(rule({ market_cap_max: 1 })).toBeUndefined();
  });

  it("refuse an address that does not fit its chain, naming the field", () => {
    const flow = inputRules.smartmoneyFlowIntel as NonNullable<typeof inputRules.smartmoneyFlowIntel>;
    const wallet = inputRules.smartmoneyWalletIntel as NonNullable<typeof inputRules.smartmoneyWalletIntel>;
    expect(fieldOf(flow({ chain: "ethereum", token_address: JUP }))).toEqual(["token_address"]);
    expect(fieldOf(flow({ chain: "solana", token_address: FAMOUS }))).toEqual(["token_address"]);
    expect(flow({ chain: "solana", token_address: JUP })).toBeUndefined();
    expect(fieldOf(wallet({ chain: "solana", address: FAMOUS }))).toEqual(["address"]);
    expect(fieldOf(wallet({ chain: "arbitrum", address: JUP }))).toEqual(["address"]);
    expect(wallet({ chain: "base", address: FAMOUS })).toBeUndefined();
    // base58 of the pattern's length, but 33 bytes and fewer than 32: not addresses
    expect(fieldOf(flow({ chain: "solana", token_address: "z".repeat(44) }))).toEqual(["token_address"]);
    expect(fieldOf(wallet({ chain: "solana", address: "2".repeat(32) }))).toEqual(["address"]);
  });

  it("refuse a Solana address field that is not 32 bytes, where the request carries it", () => {
    const { paid } = loadAnalyticsContract();
    const route = (method: string, path: string) =>
      paid.find((r) => r.method === method && r.path === path) as PaidRoute;
    const post = route("post", "/lp/wallet-positions");
    expect(post.solanaAddresses).toEqual([
      { location: "body", field: "wallet" },
      { location: "body", field: "pool" },
    ]);
    expect(solanaAddressErrors(post, { wallet: JUP })).toEqual([]);
    expect(solanaAddressErrors(post, { wallet: JUP, pool: "z".repeat(44) })).toEqual([
      { location: "body", field: "pool", message: "must be a Solana address: base58 of 32 bytes" },
    ]);
    // every field that is not, as the schema's errors are
    expect(fieldOf(solanaAddressErrors(post, { wallet: "2".repeat(32), pool: "z".repeat(44) }))).toEqual([
      "wallet",
      "pool",
    ]);
    const legacy = route("get", "/base/trenches/token/{mint}/verdict");
    expect(solanaAddressErrors(legacy, { mint: "2".repeat(32) })[0]).toMatchObject({ location: "path", field: "mint" });
    expect(
      fieldOf(solanaAddressErrors(route("get", "/trenches/curve"), { mint: JUP, curve_key: "z".repeat(44) })),
    ).toEqual(["curve_key"]);
  });

  it("refuse a bridge sender of the other chain family", () => {
    const rule = inputRules.bridgeQuote as NonNullable<typeof inputRules.bridgeQuote>;
    const quote = {
      from_chain: "base",
      to_chain: "solana",
      from_token: "USDC",
      to_token: "USDC",
      amount: 100,
    } as const;
    expect(fieldOf(rule({ ...quote, from_address: JUP }))).toEqual(["from_address"]);
    expect(fieldOf(rule({ ...quote, from_chain: "solana", from_address: FAMOUS }))).toEqual(["from_address"]);
    expect(rule({ ...quote, from_address: FAMOUS })).toBeUndefined();
    expect(fieldOf(rule({ ...quote, from_chain: "solana", from_address: "z".repeat(44) }))).toEqual(["from_address"]);
    expect(rule({ ...quote, from_chain: "solana", from_address: JUP })).toBeUndefined();
    expect(rule(quote)).toBeUndefined();
  });
});
