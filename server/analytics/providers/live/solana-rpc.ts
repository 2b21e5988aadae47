/**
 * Live Solana chain reads over JSON-RPC (docs/upstreams.md §4), on one endpoint (`SOLANA_RPC_URL`, a
 * Helius-class RPC). Mints: `getAccountInfo(jsonParsed)`; holders: `getTokenLargestAccounts`, owners
 * through `getMultipleAccounts`, counts through `getProgramAccounts`; curves: `getAccountInfo(base64)`
 * decoded by layout; histories: `getSignaturesForAddress` paged (bounded), then `getTransaction`,
 * whose balance changes give trades; prices: the DAS `getAssetBatch` (Helius and other DAS RPCs).
 * Active traders and candles are indexer products no RPC serves: those two reads are upstream errors.
 */
import { z } from "zod";
import { upstreamError } from "../../../http/errors.js";
import type { CurveAccount, WalletTrade } from "../../markets/records.js";
import {
  type ChainRpcProvider,
  type MintAccount,
  type MintCreation,
  type TokenBalance,
  type TokenHolder,
  type TokenTrade,
  WSOL_MINT,
} from "../chain-rpc.js";
import { numeric } from "./http.js";
import type { JsonRpc } from "./json-rpc.js";
import {
  curveAddresses,
  decodeLaunchLabPool,
  decodePumpCurve,
  isOnCurveAddress,
  LAUNCHLAB_PROGRAM,
  PUMP_PROGRAM,
  SYSTEM_PROGRAM,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
} from "./solana-accounts.js";
import { LAMPORTS, mapMintAccount, mapTokenTrade, mapWalletTrade, tokenDeltas } from "./solana-mappers.js";
import { readAccounts, readMetadata } from "./solana-reads.js";
import {
  base64Account,
  base64Data,
  parsedAccount,
  type Signature,
  signaturesSchema,
  type Transaction,
  tokenAccountData,
  transactionSchema,
} from "./solana-schemas.js";

/** Pages of `getSignaturesForAddress` read at most; a longer history is "not available". */
const MAX_SIGNATURE_PAGES = 5;
const SIGNATURE_PAGE = 1000;
/** Transactions fetched per history read (newest for wallets and recent trades, oldest for first blocks). */
const MAX_TRANSACTIONS = 200;

export interface SolanaRpcOptions {
  rpc: JsonRpc;
}

/** The window of a token's trades: a slot range, or everything since a time. */
type TradeWindow = Parameters<ChainRpcProvider["tokenTrades"]>[1];

/** The upstream error for a read no RPC serves. */
const notServed = (source: string, what: string) =>
  upstreamError(source, `${source} does not serve ${what}; it needs an indexer.`);

/** A mint's account, parsed; undefined when absent or not a mint. */
async function mintAccount(rpc: JsonRpc, mint: string): Promise<MintAccount | undefined> {
  const { value } = await rpc.call(
    "getAccountInfo",
    [mint, { encoding: "jsonParsed" }],
    z.object({ value: parsedAccount.nullable() }),
  );
  return mapMintAccount(mint, value);
}

/** Signatures of an address, newest first, until `enough` says stop or the history ends; bounded. */
async function signatures(
  rpc: JsonRpc,
  address: string,
  enough: (page: Signature[]) => boolean,
): Promise<{ list: Signature[]; complete: boolean }> {
  const list: Signature[] = [];
  for (let page = 0; page < MAX_SIGNATURE_PAGES; page++) {
    const before = list.at(-1)?.signature;
    const batch = await rpc.call(
      "getSignaturesForAddress",
      [address, { limit: SIGNATURE_PAGE, before }],
      signaturesSchema,
    );
    list.push(...batch);
    if (batch.length < SIGNATURE_PAGE) return { list, complete: true };
    if (enough(batch)) return { list, complete: false };
  }
  return { list, complete: false };
}

/** One transaction, parsed; null when the RPC has none under that signature. */
const transaction = (rpc: JsonRpc, signature: string) =>
  rpc.call(
    "getTransaction",
    [signature, { encoding: "jsonParsed", maxSupportedTransactionVersion: 0 }],
    transactionSchema,
  );

/** The transactions of the successful signatures of `list`, in its order; those the RPC lacks are left out. */
async function transactions(rpc: JsonRpc, list: Signature[]): Promise<Transaction[]> {
  const txs = await Promise.all(list.filter((s) => s.err == null).map((s) => transaction(rpc, s.signature)));
  return txs.filter((tx): tx is Transaction => tx !== null);
}

/** USD prices by mint from the DAS `getAssetBatch`; mints without a price are left out. */
async function prices(rpc: JsonRpc, mints: readonly string[]): Promise<Map<string, number>> {
  const assets = await rpc.call(
    "getAssetBatch",
    { ids: [...new Set(mints)] },
    z.array(
      z
        .object({
          id: z.string(),
          token_info: z.object({ price_info: z.object({ price_per_token: numeric }).nullish() }).nullish(),
        })
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

/** A pump.fun curve or LaunchLab pool account, decoded by its owner's layout; undefined for anything else. */
async function curveAccount(rpc: JsonRpc, address: string): Promise<CurveAccount | undefined> {
  const { value } = await rpc.call(
    "getAccountInfo",
    [address, { encoding: "base64" }],
    z.object({ value: base64Account.nullable() }),
  );
  if (value?.owner === PUMP_PROGRAM) return decodePumpCurve(address, value.data);
  if (value?.owner === LAUNCHLAB_PROGRAM) return decodeLaunchLabPool(address, value.data);
  return undefined;
}

/** A mint's largest token accounts with their owners, each owner a wallet or a program. */
async function largestHolders(rpc: JsonRpc, mint: string): Promise<TokenHolder[]> {
  const { value } = await rpc.call(
    "getTokenLargestAccounts",
    [mint],
    z.object({ value: z.array(z.object({ address: z.string(), uiAmountString: numeric })) }),
  );
  const tokenAccounts = await readAccounts(
    rpc,
    value.map((v) => v.address),
    "jsonParsed",
    parsedAccount,
  );
  const owners = tokenAccounts.map((a) => tokenAccountData.safeParse(a?.data).data?.parsed.info.owner);
  const ownerAccounts = await readAccounts(
    rpc,
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
}

/** Token accounts of a mint holding a non-zero balance; 0 for an unknown mint. */
async function holderCount(rpc: JsonRpc, mint: string): Promise<number> {
  const account = await mintAccount(rpc, mint);
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
}

/** A mint's first successful transaction and its signer; undefined when its history is longer than the bound. */
async function mintCreation(rpc: JsonRpc, mint: string): Promise<MintCreation | undefined> {
  const { list, complete } = await signatures(rpc, mint, () => false);
  const first = list.filter((s) => s.err == null).at(-1);
  if (!complete || !first) return undefined;
  const tx = await transaction(rpc, first.signature);
  if (!tx || tx.blockTime === null) return undefined;
  const creator = tx.transaction.message.accountKeys[0]?.pubkey as string;
  return { signature: first.signature, slot: tx.slot, blockTime: tx.blockTime * 1000, creator } satisfies MintCreation;
}

/** A mint's curve trades in a time or slot window, oldest first, read from its curve's (or pool's) history. */
async function tokenTrades(rpc: JsonRpc, mint: string, window: TradeWindow): Promise<TokenTrade[]> {
  const source = rpc.source;
  const { pump, launchLab } = curveAddresses(mint);
  const since = "since" in window ? window.since : undefined;
  const stop = (page: Signature[]) => since !== undefined && (page.at(-1)?.blockTime ?? 0) * 1000 < since;
  let history = await signatures(rpc, pump, stop);
  if (history.list.length === 0) history = await signatures(rpc, launchLab, stop);
  const { list, complete } = history;
  // Without the oldest signatures, "no trade in the first blocks" would be a wrong answer.
  if ("fromSlot" in window && !complete && (list.at(-1)?.slot ?? 0) > window.fromSlot)
    throw upstreamError(
      source,
      `${source} history of ${mint} is longer than ${MAX_SIGNATURE_PAGES * SIGNATURE_PAGE} signatures.`,
    );
  const inWindow =
    "since" in window
      ? list.filter((s) => (s.blockTime ?? 0) * 1000 >= window.since).slice(0, MAX_TRANSACTIONS)
      : list.filter((s) => s.slot >= window.fromSlot && s.slot <= window.toSlot).slice(-MAX_TRANSACTIONS);
  const trades = (await transactions(rpc, inWindow)).flatMap((tx) => mapTokenTrade(tx, mint) ?? []);
  return trades.sort((a, b) => a.slot - b.slot || a.blockTime - b.blockTime);
}

/** A wallet's trades since a time, newest first, valued at SOL's current price. */
async function walletTrades(rpc: JsonRpc, address: string, since: number): Promise<WalletTrade[]> {
  const { list } = await signatures(rpc, address, (page) => (page.at(-1)?.blockTime ?? 0) * 1000 < since);
  const recent = list.filter((s) => (s.blockTime ?? 0) * 1000 >= since).slice(0, MAX_TRANSACTIONS);
  const txs = await transactions(rpc, recent);
  const mints = txs.flatMap((tx) => [...tokenDeltas(tx, address).keys()]);
  const [solPrice, symbols] = await Promise.all([prices(rpc, [WSOL_MINT]), readMetadata(rpc, mints)]);
  const symbolOf = new Map([...symbols].map(([mint, m]) => [mint, m.symbol]));
  return txs
    .flatMap((tx) => mapWalletTrade(tx, address, solPrice.get(WSOL_MINT) ?? 0, symbolOf) ?? [])
    .sort((a, b) => b.blockTime - a.blockTime);
}

/** An owner's non-zero token balances (of one mint, or of both token programs), with their symbols. */
async function tokenAccounts(rpc: JsonRpc, owner: string, mint?: string): Promise<TokenBalance[]> {
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
  const symbols = await readMetadata(
    rpc,
    held.map((h) => h.mint),
  );
  return held.map(
    (h): TokenBalance => ({
      mint: h.mint,
      symbol: symbols.get(h.mint)?.symbol ?? "?",
      amount: h.tokenAmount.uiAmountString,
    }),
  );
}

export function createSolanaRpc({ rpc }: SolanaRpcOptions): ChainRpcProvider {
  const source = rpc.source;
  return {
    source,
    curveAddresses,
    curveAccount: (address) => curveAccount(rpc, address),
    mintAccount: (mint) => mintAccount(rpc, mint),
    async tokenMetadata(mint) {
      return (await readMetadata(rpc, [mint])).get(mint);
    },
    largestHolders: (mint) => largestHolders(rpc, mint),
    holderCount: (mint) => holderCount(rpc, mint),
    mintCreation: (mint) => mintCreation(rpc, mint),
    tokenTrades: (mint, window) => tokenTrades(rpc, mint, window),
    walletTrades: (address, since) => walletTrades(rpc, address, since),
    async solBalance(address) {
      const { value } = await rpc.call("getBalance", [address], z.object({ value: z.number() }));
      return value / LAMPORTS;
    },
    tokenAccounts: (owner, mint) => tokenAccounts(rpc, owner, mint),
    async activeTraders() {
      throw notServed(source, "active traders");
    },
    prices: (mints) => prices(rpc, mints),
    async candles() {
      throw notServed(source, "price candles");
    },
  };
}
