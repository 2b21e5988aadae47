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
import {
  type ChainRpcProvider,
  type MintAccount,
  type MintCreation,
  type TokenBalance,
  type TokenHolder,
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
