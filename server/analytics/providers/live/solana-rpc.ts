/**
 * Live Solana chain reads over JSON-RPC (upstream.md §4), on one endpoint (`SOLANA_RPC_URL`, a
 * Helius-class RPC). Mints: `getAccountInfo(jsonParsed)`; holders: `getTokenLargestAccounts`, owners
 * through `getMultipleAccounts`, counts through `getProgramAccounts`; curves: `getAccountInfo(base64)`
 * decoded by layout; histories: `getSignaturesForAddress` paged (bounded), then `getTransaction`,
 * whose balance changes give trades; prices: the DAS `getAssetBatch` (Helius and other DAS RPCs).
 * Active traders and candles are indexer products no RPC serves: those two reads are upstream errors.
 */
import { z } from "zod";
import { upstreamError } from "../../../http/errors.js";
import type { WalletTrade } from "../../markets/records.js";
import type { ChainRpcProvider, MintAccount, MintCreation, TokenBalance, TokenHolder, TokenMetadata, TokenTrade } from "../chain-rpc.js";
import { WSOL_MINT } from "../chain-rpc.js";
import { numeric, type UpstreamHttp } from "./http.js";
import {
  curveAddresses,
  decodeLaunchLabPool,
  decodeMetadata,
  decodePumpCurve,
  isOnCurveAddress,
  LAUNCHLAB_PROGRAM,
  metadataAddress,
  PUMP_PROGRAM,
  SYSTEM_PROGRAM,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
} from "./solana-accounts.js";

/** One JSON-RPC endpoint; a JSON-RPC `error` answer is an upstream error. */
export interface JsonRpc {
  readonly source: string;
  call<T>(method: string, params: unknown, result: z.ZodType<T>): Promise<T>;
}

const rpcError = z.object({ error: z.object({ code: z.number(), message: z.string() }) });

export function createJsonRpc(http: UpstreamHttp, url: string): JsonRpc {
  let id = 0;
  return {
    source: http.source,
    async call(method, params, result) {
      const body = await http.json(
        { url, method: "POST", body: { jsonrpc: "2.0", id: ++id, method, params } },
        z.union([rpcError, z.object({ result })]),
      );
      if ("error" in body) throw upstreamError(http.source, `${http.source} answered error ${body.error.code} to ${method}.`);
      return body.result;
    },
  };
}

/** Pages of `getSignaturesForAddress` read at most; a longer history is "not available". */
const MAX_SIGNATURE_PAGES = 5;
const SIGNATURE_PAGE = 1000;
/** Transactions fetched per history read (newest for wallets and recent trades, oldest for first blocks). */
const MAX_TRANSACTIONS = 200;
/** `getMultipleAccounts` takes at most 100 keys. */
const MAX_KEYS = 100;
const LAMPORTS = 1e9;

/** Programs a wallet trade goes through, by the name the role uses. */
const VENUES: Record<string, string> = {
  [PUMP_PROGRAM]: "pump",
  [LAUNCHLAB_PROGRAM]: "launchlab",
  JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4: "jupiter",
  LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo: "meteora",
};
const STABLES = new Set(["EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB"]);

const base64Data = z.tuple([z.string(), z.literal("base64")]).transform(([b64]) => new Uint8Array(Buffer.from(b64, "base64")));

/** A `jsonParsed` account: `data` is parsed for known programs, `[base64, "base64"]` otherwise. */
export const parsedAccount = z.object({ owner: z.string(), lamports: z.number(), data: z.unknown() });
export const base64Account = z.object({ owner: z.string(), data: base64Data });

const mintData = z.object({
  program: z.enum(["spl-token", "spl-token-2022"]),
  parsed: z.object({
    type: z.literal("mint"),
    info: z.object({
      decimals: z.number().int().nonnegative(),
      supply: z.string().regex(/^\d+$/),
      mintAuthority: z.string().nullish(),
      freezeAuthority: z.string().nullish(),
    }),
  }),
});
const tokenAccountData = z.object({
  parsed: z.object({ info: z.object({ mint: z.string(), owner: z.string(), tokenAmount: z.object({ uiAmountString: numeric }) }) }),
});

/** The mint as `getAccountInfo(jsonParsed)` reads it; undefined when the account is absent or not a mint. */
export function mapMintAccount(mint: string, account: z.infer<typeof parsedAccount> | null): MintAccount | undefined {
  const parsed = mintData.safeParse(account?.data);
  if (!parsed.success) return undefined;
  const { decimals, supply, mintAuthority, freezeAuthority } = parsed.data.parsed.info;
  return {
    mint,
    program: parsed.data.program,
    decimals,
    supply: Number(BigInt(supply)) / 10 ** decimals,
    mintAuthority: mintAuthority ?? null,
    freezeAuthority: freezeAuthority ?? null,
  };
}

const uiTokenBalance = z.object({ mint: z.string(), owner: z.string().nullish(), uiTokenAmount: z.object({ uiAmountString: numeric }) });
export const transactionSchema = z
  .object({
    slot: z.number(),
    blockTime: z.number().nullable(),
    meta: z.object({
      err: z.unknown().nullable(),
      fee: z.number(),
      preBalances: z.array(z.number()),
      postBalances: z.array(z.number()),
      preTokenBalances: z.array(uiTokenBalance).nullish(),
      postTokenBalances: z.array(uiTokenBalance).nullish(),
    }),
    transaction: z.object({
      signatures: z.array(z.string()).min(1),
      message: z.object({
        accountKeys: z.array(z.object({ pubkey: z.string() })).min(1),
        instructions: z.array(z.object({ programId: z.string() })),
      }),
    }),
  })
  .nullable();
export type Transaction = NonNullable<z.infer<typeof transactionSchema>>;

const signaturesSchema = z.array(
  z.object({ signature: z.string(), slot: z.number(), err: z.unknown().nullable(), blockTime: z.number().nullable() }),
);
type Signature = z.infer<typeof signaturesSchema>[number];

/** Net change of `owner`'s balance of each mint in a transaction, UI units. */
function tokenDeltas(tx: Transaction, owner: string): Map<string, number> {
  const deltas = new Map<string, number>();
  const add = (rows: z.infer<typeof uiTokenBalance>[] | null | undefined, sign: number) => {
    for (const row of rows ?? []) {
      if (row.owner === owner) deltas.set(row.mint, (deltas.get(row.mint) ?? 0) + sign * row.uiTokenAmount.uiAmountString);
    }
  };
  add(tx.meta.preTokenBalances, -1);
  add(tx.meta.postTokenBalances, 1);
  return deltas;
}

/** The fee payer's SOL change before the network fee: what a trade moved, in SOL. */
const solMoved = (tx: Transaction) => ((tx.meta.postBalances[0] ?? 0) - (tx.meta.preBalances[0] ?? 0) + tx.meta.fee) / LAMPORTS;

/** A trade of `mint` by the fee payer; undefined for a failed transaction or one that moved none of it. */
export function mapTokenTrade(tx: Transaction, mint: string): TokenTrade | undefined {
  if (tx.meta.err != null || tx.blockTime === null) return undefined;
  const wallet = tx.transaction.message.accountKeys[0]?.pubkey as string;
  const tokens = tokenDeltas(tx, wallet).get(mint) ?? 0;
  if (tokens === 0) return undefined;
  return {
    signature: tx.transaction.signatures[0] as string,
    slot: tx.slot,
    blockTime: tx.blockTime * 1000,
    wallet,
    side: tokens > 0 ? "buy" : "sell",
    tokenAmount: Math.abs(tokens),
    solAmount: Math.abs(solMoved(tx)),
  };
}

/**
 * A wallet's swap: the token whose balance moved most (SOL, wrapped SOL and stablecoins price it),
 * valued by the stablecoin leg or by the SOL leg at `solUsd`. Liquidity moves are not told apart.
 */
export function mapWalletTrade(tx: Transaction, wallet: string, solUsd: number, symbols: Map<string, string>): WalletTrade | undefined {
  if (tx.meta.err != null || tx.blockTime === null || tx.transaction.message.accountKeys[0]?.pubkey !== wallet) return undefined;
  const deltas = tokenDeltas(tx, wallet);
  const traded = [...deltas]
    .filter(([mint, d]) => mint !== WSOL_MINT && !STABLES.has(mint) && d !== 0)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))[0];
  if (!traded) return undefined;
  const [mint, amount] = traded;
  const stableUsd = [...deltas].filter(([m]) => STABLES.has(m)).reduce((sum, [, d]) => sum + Math.abs(d), 0);
  const sol = Math.abs(solMoved(tx) + (deltas.get(WSOL_MINT) ?? 0));
  const venue = tx.transaction.message.instructions.map((i) => VENUES[i.programId]).find(Boolean) ?? "other";
  return {
    signature: tx.transaction.signatures[0] as string,
    blockTime: tx.blockTime * 1000,
    type: amount > 0 ? "buy" : "sell",
    venue,
    mint,
    symbol: symbols.get(mint) ?? "?",
    amount: Math.abs(amount),
    valueUsd: stableUsd > 0 ? stableUsd : sol * solUsd,
  };
}

/** `getMultipleAccounts`, 100 keys a call, in the order of `keys`. */
export async function readAccounts<T>(
  rpc: JsonRpc,
  keys: readonly string[],
  encoding: "jsonParsed" | "base64",
  schema: z.ZodType<T>,
): Promise<(T | null)[]> {
  const chunks = Array.from({ length: Math.ceil(keys.length / MAX_KEYS) }, (_, i) => keys.slice(i * MAX_KEYS, (i + 1) * MAX_KEYS));
  const pages = await Promise.all(
    chunks.map((chunk) => rpc.call("getMultipleAccounts", [chunk, { encoding }], z.object({ value: z.array(schema.nullable()) }))),
  );
  return pages.flatMap((p) => p.value);
}

/** Mints by address; absent or non-mint accounts are left out. */
export async function readMints(rpc: JsonRpc, mints: readonly string[]): Promise<Map<string, MintAccount>> {
  const unique = [...new Set(mints)];
  const found = await readAccounts(rpc, unique, "jsonParsed", parsedAccount);
  const out = new Map<string, MintAccount>();
  found.forEach((account, i) => {
    const mint = mapMintAccount(unique[i] as string, account);
    if (mint) out.set(mint.mint, mint);
  });
  return out;
}

/** Metaplex metadata of mints, by mint; mints without a metadata account are left out. */
export async function readMetadata(rpc: JsonRpc, mints: readonly string[]): Promise<Map<string, TokenMetadata>> {
  const unique = [...new Set(mints)];
  const found = await readAccounts(rpc, unique.map(metadataAddress), "base64", base64Account);
  const out = new Map<string, TokenMetadata>();
  found.forEach((account, i) => {
    const decoded = account && decodeMetadata(unique[i] as string, account.data);
    if (decoded) out.set(decoded.mint, decoded);
  });
  return out;
}

export interface SolanaRpcOptions {
  rpc: JsonRpc;
}

export function createSolanaRpc({ rpc }: SolanaRpcOptions): ChainRpcProvider {
  const source = rpc.source;
  const notServed = (what: string) => upstreamError(source, `${source} does not serve ${what}; it needs an indexer.`);

  const accounts = <T>(keys: readonly string[], encoding: "jsonParsed" | "base64", schema: z.ZodType<T>) =>
    readAccounts(rpc, keys, encoding, schema);

  async function mintAccount(mint: string): Promise<MintAccount | undefined> {
    const { value } = await rpc.call("getAccountInfo", [mint, { encoding: "jsonParsed" }], z.object({ value: parsedAccount.nullable() }));
    return mapMintAccount(mint, value);
  }

  const metadata = (mints: readonly string[]) => readMetadata(rpc, mints);

  /** Signatures of an address, newest first, until `enough` says stop or the history ends; bounded. */
  async function signatures(address: string, enough: (page: Signature[]) => boolean): Promise<{ list: Signature[]; complete: boolean }> {
    const list: Signature[] = [];
    for (let page = 0; page < MAX_SIGNATURE_PAGES; page++) {
      const before = list.at(-1)?.signature;
      const batch = await rpc.call("getSignaturesForAddress", [address, { limit: SIGNATURE_PAGE, before }], signaturesSchema);
      list.push(...batch);
      if (batch.length < SIGNATURE_PAGE) return { list, complete: true };
      if (enough(batch)) return { list, complete: false };
    }
    return { list, complete: false };
  }

  const transaction = (signature: string) =>
    rpc.call("getTransaction", [signature, { encoding: "jsonParsed", maxSupportedTransactionVersion: 0 }], transactionSchema);

  async function transactions(list: Signature[]): Promise<Transaction[]> {
    const txs = await Promise.all(list.filter((s) => s.err == null).map((s) => transaction(s.signature)));
    return txs.filter((tx): tx is Transaction => tx !== null);
  }

  async function prices(mints: readonly string[]): Promise<Map<string, number>> {
    const assets = await rpc.call(
      "getAssetBatch",
      { ids: [...new Set(mints)] },
      z.array(
        z
          .object({ id: z.string(), token_info: z.object({ price_info: z.object({ price_per_token: numeric }).nullish() }).nullish() })
          .nullable(),
      ),
    );
    const out = new Map<string, number>();
    for (const asset of assets) {
      const price = asset?.token_info?.price_info?.price_per_token;
      if (asset && price !== undefined) out.set(asset.id, price);
    }
    return out;
  }

  return {
    source,
    curveAddresses,
    async curveAccount(address) {
      const { value } = await rpc.call("getAccountInfo", [address, { encoding: "base64" }], z.object({ value: base64Account.nullable() }));
      if (value?.owner === PUMP_PROGRAM) return decodePumpCurve(address, value.data);
      if (value?.owner === LAUNCHLAB_PROGRAM) return decodeLaunchLabPool(address, value.data);
      return undefined;
    },
    mintAccount,
    async tokenMetadata(mint) {
      return (await metadata([mint])).get(mint);
    },
    async largestHolders(mint) {
      const { value } = await rpc.call(
        "getTokenLargestAccounts",
        [mint],
        z.object({ value: z.array(z.object({ address: z.string(), uiAmountString: numeric })) }),
      );
      const tokenAccounts = await accounts(
        value.map((v) => v.address),
        "jsonParsed",
        parsedAccount,
      );
      const owners = tokenAccounts.map((a) => tokenAccountData.safeParse(a?.data).data?.parsed.info.owner);
      const ownerAccounts = await accounts(
        owners.filter((o): o is string => o !== undefined),
        "base64",
        z.object({ owner: z.string() }).loose(),
      );
      const ownerProgram = new Map(owners.filter((o) => o !== undefined).map((o, i) => [o, ownerAccounts[i]?.owner]));
      return value.flatMap((v, i): TokenHolder[] => {
        const owner = owners[i];
        if (!owner) return [];
        const program = ownerProgram.get(owner);
        // A System-owned owner is a wallet; an owner with no account is one when its key is on the curve.
        const wallet = program === undefined ? isOnCurveAddress(owner) : program === SYSTEM_PROGRAM;
        return [{ tokenAccount: v.address, owner, ownerKind: wallet ? "wallet" : "program", amount: v.uiAmountString }];
      });
    },
    async holderCount(mint) {
      const account = await mintAccount(mint);
      if (!account) return 0;
      const program = account.program === "spl-token" ? TOKEN_PROGRAM : TOKEN_2022_PROGRAM;
      // Token-2022 accounts carry extensions, so only classic token accounts have a fixed size to filter on.
      const filters = [{ memcmp: { offset: 0, bytes: mint } }, ...(program === TOKEN_PROGRAM ? [{ dataSize: 165 }] : [])];
      const rows = await rpc.call(
        "getProgramAccounts",
        [program, { encoding: "base64", dataSlice: { offset: 64, length: 8 }, filters }],
        z.array(z.object({ account: z.object({ data: base64Data }) })),
      );
      return rows.filter(({ account }) => account.data.some((byte) => byte !== 0)).length;
    },
    async mintCreation(mint) {
      const { list, complete } = await signatures(mint, () => false);
      const first = list.filter((s) => s.err == null).at(-1);
      if (!complete || !first) return undefined;
      const tx = await transaction(first.signature);
      if (!tx || tx.blockTime === null) return undefined;
      const creator = tx.transaction.message.accountKeys[0]?.pubkey as string;
      return { signature: first.signature, slot: tx.slot, blockTime: tx.blockTime * 1000, creator } satisfies MintCreation;
    },
    async tokenTrades(mint, window) {
      const { pump, launchLab } = curveAddresses(mint);
      const since = "since" in window ? window.since : undefined;
      const stop = (page: Signature[]) => since !== undefined && (page.at(-1)?.blockTime ?? 0) * 1000 < since;
      let history = await signatures(pump, stop);
      if (history.list.length === 0) history = await signatures(launchLab, stop);
      const { list, complete } = history;
      // Without the oldest signatures, "no trade in the first blocks" would be a wrong answer.
      if ("fromSlot" in window && !complete && (list.at(-1)?.slot ?? 0) > window.fromSlot)
        throw upstreamError(source, `${source} history of ${mint} is longer than ${MAX_SIGNATURE_PAGES * SIGNATURE_PAGE} signatures.`);
      const inWindow =
        "since" in window
          ? list.filter((s) => (s.blockTime ?? 0) * 1000 >= window.since).slice(0, MAX_TRANSACTIONS)
          : list.filter((s) => s.slot >= window.fromSlot && s.slot <= window.toSlot).slice(-MAX_TRANSACTIONS);
      const trades = (await transactions(inWindow)).flatMap((tx) => mapTokenTrade(tx, mint) ?? []);
      return trades.sort((a, b) => a.slot - b.slot || a.blockTime - b.blockTime);
    },
    async walletTrades(address, since) {
      const { list } = await signatures(address, (page) => (page.at(-1)?.blockTime ?? 0) * 1000 < since);
      const recent = list.filter((s) => (s.blockTime ?? 0) * 1000 >= since).slice(0, MAX_TRANSACTIONS);
      const txs = await transactions(recent);
      const mints = txs.flatMap((tx) => [...tokenDeltas(tx, address).keys()]);
      const [solPrice, symbols] = await Promise.all([prices([WSOL_MINT]), metadata(mints)]);
      const symbolOf = new Map([...symbols].map(([mint, m]) => [mint, m.symbol]));
      return txs
        .flatMap((tx) => mapWalletTrade(tx, address, solPrice.get(WSOL_MINT) ?? 0, symbolOf) ?? [])
        .sort((a, b) => b.blockTime - a.blockTime);
    },
    async solBalance(address) {
      const { value } = await rpc.call("getBalance", [address], z.object({ value: z.number() }));
      return value / LAMPORTS;
    },
    async tokenAccounts(owner, mint) {
      const filters = mint ? [{ mint }] : [{ programId: TOKEN_PROGRAM }, { programId: TOKEN_2022_PROGRAM }];
      const pages = await Promise.all(
        filters.map((filter) =>
          rpc.call(
            "getTokenAccountsByOwner",
            [owner, filter, { encoding: "jsonParsed" }],
            z.object({ value: z.array(z.object({ account: z.object({ data: tokenAccountData }) })) }),
          ),
        ),
      );
      const held = pages
        .flatMap((p) => p.value.map((v) => v.account.data.parsed.info))
        .filter((info) => info.tokenAmount.uiAmountString > 0);
      const symbols = await metadata(held.map((h) => h.mint));
      return held.map(
        (h): TokenBalance => ({ mint: h.mint, symbol: symbols.get(h.mint)?.symbol ?? "?", amount: h.tokenAmount.uiAmountString }),
      );
    },
    async activeTraders() {
      throw notServed("active traders");
    },
    prices,
    async candles() {
      throw notServed("price candles");
    },
  };
}
