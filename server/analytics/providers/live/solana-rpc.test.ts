import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  describeUpstreamFailures,
  fixture,
  type LocalServer,
  reply,
  startServer,
  testHttp,
} from "../../../../test/support/upstreams.js";
import { createJsonRpc } from "./json-rpc.js";
import { curveAddresses, metadataAddress, SYSTEM_PROGRAM } from "./solana-accounts.js";
import { mapMintAccount, mapTokenTrade, mapWalletTrade } from "./solana-mappers.js";
import { createSolanaRpc } from "./solana-rpc.js";
import { parsedAccount, transactionSchema } from "./solana-schemas.js";

const MINT = "9BB6NFEcjBCtnNLFko2FqVQBq8HHM13kCyYcdQbgpump";
const CREATOR = "7dGbd2QZcCKcTndnHcTL8q7SMVXAkp688NTQYwrRCrar";
const SNIPER = "4Be9CvxqHW6BYiRAxW9Q3xu1ycTMWaL5z8NX4HR3ha7t";
const CURVE = curveAddresses(MINT).pump;
const txs = fixture<Record<string, unknown>>("rpc-transactions.json");
const tx = (name: string) =>
  transactionSchema.parse(txs[name]) as NonNullable<ReturnType<typeof transactionSchema.parse>>;
const mints = fixture<{ result: { value: unknown[] } }>("rpc-mints.json").result.value;

describe("mapMintAccount", () => {
  it("reads decimals, the string supply in token units and null authorities", () => {
    expect(mapMintAccount("So11", parsedAccount.parse(mints[0]))).toEqual({
      mint: "So11",
      program: "spl-token",
      decimals: 9,
      supply: 0,
      mintAuthority: null,
      freezeAuthority: null,
    });
    expect(mapMintAccount("USDC", parsedAccount.parse(mints[1]))).toMatchObject({
      supply: 9_000_000_000,
      mintAuthority: "BJE5MMbqXjVwjAF7oxwPYXnTXDyspzZyt4vwenNw5ruG",
    });
  });

  it("is undefined for an absent account or one that is not a mint", () => {
    expect(mapMintAccount("x", null)).toBeUndefined();
    expect(
      mapMintAccount(
        "x",
        parsedAccount.parse(fixture<{ result: { value: unknown[] } }>("rpc-token-accounts.json").result.value[0]),
      ),
    ).toBeUndefined();
  });
});

describe("mapTokenTrade", () => {
  it("reads buys and sells of the fee payer from its balance changes", () => {
    expect(mapTokenTrade(tx("sigSnipe"), MINT)).toEqual({
      signature: "sigSnipe",
      slot: 300000001,
      blockTime: 1739363435000,
      wallet: SNIPER,
      side: "buy",
      tokenAmount: 30000000,
      solAmount: expect.closeTo(1.003995, 9),
    });
    expect(mapTokenTrade(tx("sigSell"), MINT)).toMatchObject({
      side: "sell",
      tokenAmount: 30000000,
      solAmount: expect.closeTo(0.954005, 9),
    });
  });

  it("skips failed transactions and transactions that did not move the token", () => {
    expect(mapTokenTrade(tx("sigFailed"), MINT)).toBeUndefined();
    expect(mapTokenTrade(tx("sigSnipe"), "OtherMint")).toBeUndefined();
  });
});

describe("mapWalletTrade", () => {
  it("values a swap by its SOL leg and names the venue by program", () => {
    expect(mapWalletTrade(tx("sigSell"), SNIPER, 150, new Map([[MINT, "FARTCOIN"]]))).toEqual({
      signature: "sigSell",
      blockTime: 1739363440000,
      type: "sell",
      venue: "pump",
      mint: MINT,
      symbol: "FARTCOIN",
      amount: 30000000,
      valueUsd: expect.closeTo(0.954005 * 150, 6),
    });
    expect(mapWalletTrade(tx("sigSell"), CREATOR, 150, new Map())).toBeUndefined();
  });
});

describe("createSolanaRpc against a local JSON-RPC server", () => {
  let server: LocalServer;
  const owners = [{ owner: "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P" }, { owner: SYSTEM_PROGRAM }, null];
  const result = (value: unknown) => ({ jsonrpc: "2.0", id: 1, result: value });
  beforeAll(async () => {
    server = await startServer((req, res) => {
      const { method, params } = req.body as { method: string; params: unknown };
      const [first, options] = (Array.isArray(params) ? params : [params, {}]) as [unknown, { encoding?: string }];
      const keys = first as string[];
      const answers: Record<string, () => unknown> = {
        getAccountInfo: () => {
          if (first === CURVE) return fixture("rpc-pump-curve.json");
          if (first === curveAddresses(MINT).launchLab) return fixture("rpc-launchlab-pool.json");
          if (first === MINT) return result({ context: { slot: 1 }, value: mints[1] });
          return result({ context: { slot: 1 }, value: null });
        },
        getMultipleAccounts: () => {
          if (keys[0] === metadataAddress(MINT)) return fixture("rpc-metadata.json");
          if (options.encoding === "base64") return result({ context: { slot: 1 }, value: owners });
          return fixture("rpc-token-accounts.json");
        },
        getTokenLargestAccounts: () => fixture("rpc-largest.json"),
        getProgramAccounts: () =>
          result([
            { pubkey: "a", account: { data: ["AAAAAAAAAAA=", "base64"] } },
            { pubkey: "b", account: { data: ["ZAAAAAAAAAA=", "base64"] } },
          ]),
        getSignaturesForAddress: () =>
          first === CURVE || first === SNIPER ? fixture("rpc-signatures.json") : result([]),
        getTransaction: () => result(txs[first as string] ?? null),
        getBalance: () => result({ context: { slot: 1 }, value: 1_500_000_000 }),
        getTokenAccountsByOwner: () =>
          result({
            context: { slot: 1 },
            value: [
              {
                pubkey: "ata",
                account: fixture<{ result: { value: unknown[] } }>("rpc-token-accounts.json").result.value[1],
              },
            ],
          }),
        getAssetBatch: () =>
          result([
            {
              id: "So11111111111111111111111111111111111111112",
              token_info: { price_info: { price_per_token: 150, currency: "USDC" } },
            },
            null,
          ]),
      };
      const answer = answers[method];
      reply(
        res,
        200,
        answer ? answer() : { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found" } },
      );
    });
  });
  afterAll(() => server.close());
  const chain = () => createSolanaRpc({ rpc: createJsonRpc(testHttp("solana-rpc"), server.url) });

  it("decodes curve accounts by owner, and misses other addresses", async () => {
    expect(await chain().curveAccount(CURVE)).toMatchObject({
      kind: "pump",
      realSolReserves: 2.962962961,
      creator: CREATOR,
    });
    expect(await chain().curveAccount(curveAddresses(MINT).launchLab)).toMatchObject({
      kind: "launchlab",
      realB: 42.5,
    });
    expect(await chain().curveAccount("Nothing11111111111111111111111111111111111")).toBeUndefined();
  });

  it("reads mints, metadata, holders with their owner kinds, and holder counts", async () => {
    expect((await chain().mintAccount(MINT))?.decimals).toBe(6);
    expect((await chain().tokenMetadata(MINT))?.symbol).toBe("FARTCOIN");
    expect(await chain().largestHolders(MINT)).toEqual([
      {
        tokenAccount: "FYjHNoFtSQ5uijKrZFyYAxvEr87hsKXkXcxkcmkBAf4r",
        owner: CURVE,
        ownerKind: "program",
        amount: 696650561.855907,
      },
      {
        tokenAccount: "BnsywxTcaYeNUtzrPxQUvzAWxfzZe3ZLUJ4wMMuLESnu",
        owner: CREATOR,
        ownerKind: "wallet",
        amount: 96449438.144093,
      },
      // No account for this owner: its key is on the curve, so a wallet.
      {
        tokenAccount: "CoaxzEh8p5YyGLcj36Eo3cUThVJxeKCs7qvLAGDYwBcz",
        owner: SNIPER,
        ownerKind: "wallet",
        amount: 30000000,
      },
    ]);
    expect(await chain().holderCount(MINT)).toBe(1);
    const count = server.seen.findLast((r) => (r.body as { method: string }).method === "getProgramAccounts");
    expect(count?.body).toMatchObject({
      params: [
        "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
        { dataSlice: { offset: 64, length: 8 }, filters: [{ memcmp: { offset: 0, bytes: MINT } }, { dataSize: 165 }] },
      ],
    });
  });

  it("finds the creation and the trades of the first blocks and of a recent window", async () => {
    server.seen.length = 0;
    // The mint's own history is the curve's here: the fixture answers for the curve and the sniper only.
    expect(await chain().mintCreation(MINT)).toBeUndefined();
    const early = await chain().tokenTrades(MINT, { fromSlot: 300000000, toSlot: 300000002 });
    expect(early.map((t) => [t.signature, t.wallet, t.side])).toEqual([
      ["sigCreate", CREATOR, "buy"],
      ["sigSnipe", SNIPER, "buy"],
    ]);
    const recent = await chain().tokenTrades(MINT, { since: 1739363438000 });
    expect(recent.map((t) => t.signature)).toEqual(["sigSell"]);
  });

  it("reads a wallet's trades, balances and prices; refuses indexer-only reads", async () => {
    const trades = await chain().walletTrades(SNIPER, 0);
    expect(trades.map((t) => [t.signature, t.type, Math.round(t.valueUsd * 1e6) / 1e6])).toEqual([
      ["sigSell", "sell", 143.10075],
      ["sigSnipe", "buy", 150.59925],
    ]);
    expect(await chain().solBalance(SNIPER)).toBe(1.5);
    expect(await chain().tokenAccounts(CREATOR, MINT)).toEqual([
      { mint: MINT, symbol: "FARTCOIN", amount: 96449438.144093 },
    ]);
    expect(await chain().prices(["So11111111111111111111111111111111111111112", MINT])).toEqual(
      new Map([["So11111111111111111111111111111111111111112", 150]]),
    );
    await expect(chain().activeTraders(0, 10)).rejects.toMatchObject({
      status: 502,
      details: { provider: "solana-rpc" },
    });
    await expect(chain().candles(MINT, "1h", 10)).rejects.toMatchObject({ status: 502 });
  });
});

describe("createSolanaRpc on an answer naming a mint that is not an address", () => {
  it("fails the answer's schema (502) rather than a derivation from it (500)", async () => {
    const account = fixture<{ result: { value: { data: { parsed: { info: { mint: string } } } }[] } }>(
      "rpc-token-accounts.json",
    ).result.value[1];
    if (!account) throw new Error("the fixture has no second token account");
    account.data.parsed.info.mint = "z".repeat(44);
    const server = await startServer((_req, res) =>
      reply(res, 200, { jsonrpc: "2.0", id: 1, result: { context: { slot: 1 }, value: [{ pubkey: "ata", account }] } }),
    );
    try {
      const chain = createSolanaRpc({ rpc: createJsonRpc(testHttp("solana-rpc"), server.url) });
      await expect(chain.tokenAccounts(CREATOR)).rejects.toMatchObject({
        status: 502,
        details: { provider: "solana-rpc" },
      });
    } finally {
      await server.close();
    }
  });
});

describe("createJsonRpc", () => {
  it("turns a JSON-RPC error into an upstream error", async () => {
    const server = await startServer((_req, res) =>
      reply(res, 200, { jsonrpc: "2.0", id: 1, error: { code: -32005, message: "busy" } }),
    );
    try {
      const rpc = createJsonRpc(testHttp("solana-rpc"), server.url);
      await expect(rpc.call("getSlot", [], (await import("zod")).z.number())).rejects.toMatchObject({
        status: 502,
        message: "solana-rpc answered error -32005 to getSlot.",
      });
    } finally {
      await server.close();
    }
  });
});

describeUpstreamFailures("createSolanaRpc.solBalance", {
  provider: "solana-rpc",
  call: (url, http) => createSolanaRpc({ rpc: createJsonRpc(http, url) }).solBalance(SNIPER),
  valid: (_req, res) => reply(res, 200, { jsonrpc: "2.0", id: 1, result: { context: { slot: 1 }, value: 5 } }),
});
