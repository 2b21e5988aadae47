/**
 * Live wallet labels and smart money: Nansen's API (docs/upstreams.md §5), POST with a JSON body
 * and the `apiKey` header. Response field names follow the official CLI's documentation; every one
 * is validated, so a different shape is an upstream error, never a guess.
 *
 * What Nansen does not serve, and how the records are completed:
 * - flow intelligence gives net flows and wallet counts per category, not gross buy and sell
 *   volumes: the net is split by its sign (buy − sell = net holds; the volumes are lower bounds);
 * - transactions carry no PnL: a trade's PnL is priced from the wallet's per-token PnL rows
 *   (current price against the trade price for a buy, the average buy price for a sell);
 * - the screener comes from smart-money netflow (flows, trader counts) joined with the token
 *   screener (prices); whale trader counts are not served and are 0;
 * - the PnL leaderboard is per token: the chain's leaderboard sums the per-token leaderboards of
 *   the five tokens with the largest smart-money net inflow over the window.
 */
import { z } from "zod";
import { upstreamError } from "../../../http/errors.js";
import type { Clock } from "../../clock.js";
import type * as Role from "../wallet-labels.js";
import { numeric, type UpstreamHttp } from "./http.js";

export const NANSEN_URL = "https://api.nansen.ai";

const HOUR = 3_600_000;
const UNIT_MS: Record<string, number> = { m: 60_000, h: HOUR, d: 24 * HOUR };
/** `5m`, `12h`, `30d`... in milliseconds. */
const windowMs = (window: Role.FlowWindow | Role.PnlWindow) =>
  Number.parseInt(window, 10) * (UNIT_MS[window.slice(-1)] as number);
/** How far back recent trades are looked for, and where a wallet's history is searched from. */
const TRADES_LOOKBACK_MS = 90 * 24 * HOUR;
const HISTORY_START = "2015-07-30";
/** Tokens whose per-token leaderboards make the chain's. */
const LEADERBOARD_TOKENS = 5;
const PAGE = 100;

/** Tokens that price a swap: the other side of a swap against one of them is the token traded. */
const QUOTE_SYMBOLS = new Set(["USDC", "USDT", "DAI", "USDE", "SOL", "WSOL", "ETH", "WETH"]);

const list = <T extends z.ZodType>(row: T) => z.object({ data: z.array(row) });

const labelRow = z.object({ label: z.string(), category: z.string().nullish() });
export const labelsSchema = z.union([z.array(labelRow), list(labelRow)]);

export const pnlSummarySchema = z.object({
  realized_pnl_usd: numeric,
  win_rate: numeric.nullish(),
  traded_times: numeric.nullish(),
});
export const pnlRowsSchema = list(
  z.object({
    token_address: z.string(),
    token_price: numeric.nullish(),
    pnl_usd_unrealised: numeric.nullish(),
    bought_amount: numeric.nullish(),
    bought_usd: numeric.nullish(),
    sold_usd: numeric.nullish(),
  }),
);

/** A time the answer states, as epoch ms: text `Date` cannot read is the answer's fault (a 502), not a 500 further on. */
const timestamp = z.string().transform((text, ctx) => {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) ctx.addIssue({ code: "custom", message: `not a time: ${text.slice(0, 40)}` });
  return ms;
});

const leg = z.object({
  token_address: z.string(),
  token_symbol: z.string(),
  token_amount: numeric,
  value_usd: numeric.nullish(),
});
export const transactionsSchema = list(
  z.object({
    block_timestamp: timestamp,
    volume_usd: numeric.nullish(),
    tokens_sent: z.array(leg).nullish(),
    tokens_received: z.array(leg).nullish(),
  }),
);

export const balancesSchema = list(
  z.object({
    token_address: z.string(),
    token_symbol: z.string(),
    token_amount: numeric,
    value_usd: numeric.nullish(),
  }),
);

export const flowIntelSchema = list(
  z.object({
    smart_trader_net_flow_usd: numeric.nullish(),
    smart_trader_wallet_count: numeric.nullish(),
    whale_net_flow_usd: numeric.nullish(),
    whale_wallet_count: numeric.nullish(),
    public_figure_net_flow_usd: numeric.nullish(),
    public_figure_wallet_count: numeric.nullish(),
  }),
);

const netflowRow = z.object({
  chain: z.string(),
  token_address: z.string(),
  token_symbol: z.string(),
  net_flow_1h_usd: numeric.nullish(),
  net_flow_24h_usd: numeric.nullish(),
  net_flow_7d_usd: numeric.nullish(),
  net_flow_30d_usd: numeric.nullish(),
  trader_count: numeric.nullish(),
  token_age_days: numeric.nullish(),
  market_cap_usd: numeric.nullish(),
});
export const netflowSchema = list(netflowRow);
export const screenerSchema = list(z.object({ token_address: z.string(), price_usd: numeric.nullish() }));

export const leaderboardSchema = list(
  z.object({
    trader_address: z.string(),
    trader_address_label: z.string().nullish(),
    pnl_usd_realised: numeric.nullish(),
    pnl_usd_unrealised: numeric.nullish(),
    bought_usd: numeric.nullish(),
    sold_usd: numeric.nullish(),
    nof_buys: numeric.nullish(),
    nof_sells: numeric.nullish(),
  }),
);

const CATEGORIES = new Set<Role.WalletLabelRecord["category"]>([
  "smart_money",
  "fund",
  "social",
  "behavioral",
  "others",
]);
const LABELED_CHAINS = new Set<Role.LabeledChain>(["ethereum", "solana", "base", "arbitrum"]);

/** The netflow field of a window; Nansen's netflow has 1h, 24h, 7d and 30d. */
const NETFLOW_FIELD: Partial<
  Record<
    Role.FlowWindow | Role.PnlWindow,
    "net_flow_1h_usd" | "net_flow_24h_usd" | "net_flow_7d_usd" | "net_flow_30d_usd"
  >
> = {
  "1h": "net_flow_1h_usd",
  "1d": "net_flow_24h_usd",
  "7d": "net_flow_7d_usd",
  "30d": "net_flow_30d_usd",
};

/** Nansen's label names in the role's vocabulary: every smart-trader label is `Smart Money`; others keep their name. */
export function roleLabel(name: string, category?: string | null): string {
  const bare = name.replace(/[^\p{L}\p{N} ]/gu, "").trim();
  if (category === "smart_money" || /smart (trader|money)/i.test(bare)) return "Smart Money";
  if (/\bwhale\b/i.test(bare)) return "Whale";
  return bare;
}

export function mapLabels(body: z.infer<typeof labelsSchema>): Role.WalletLabelRecord[] {
  const rows = Array.isArray(body) ? body : body.data;
  return rows.map((row) => ({
    label: roleLabel(row.label, row.category),
    category: CATEGORIES.has(row.category as Role.WalletLabelRecord["category"])
      ? (row.category as Role.WalletLabelRecord["category"])
      : "others",
  }));
}

const sum = <T>(rows: readonly T[], of: (row: T) => number | null | undefined) =>
  rows.reduce((total, row) => total + (of(row) ?? 0), 0);

/** The summary's realized PnL, trades and win rate; unrealized PnL and the capital traded from the per-token rows. */
export function mapPnlSummary(summary: z.infer<typeof pnlSummarySchema>, rows: z.infer<typeof pnlRowsSchema>) {
  const unrealized = sum(rows.data, (r) => r.pnl_usd_unrealised);
  const traded = sum(rows.data, (r) => (r.bought_usd ?? 0) + (r.sold_usd ?? 0));
  return {
    realizedPnlUsd: summary.realized_pnl_usd,
    unrealizedPnlUsd: unrealized,
    roiPct: traded > 0 ? ((summary.realized_pnl_usd + unrealized) / traded) * 100 : 0,
    tradedTimes: summary.traded_times ?? 0,
    winRate: summary.win_rate ?? 0,
  };
}

/**
 * Swaps as trades of their non-quote side, newest first; transfers (one side only) are left out.
 * PnL: a buy against the token's current price, a sell against its average buy price; 0 when the
 * per-token rows do not know the token.
 */
export function mapTrades(
  body: z.infer<typeof transactionsSchema>,
  pnl: z.infer<typeof pnlRowsSchema>,
): Role.TradeRecord[] {
  const byToken = new Map(pnl.data.map((r) => [r.token_address.toLowerCase(), r]));
  return body.data.flatMap((tx) => {
    const sent = tx.tokens_sent?.[0];
    const received = tx.tokens_received?.[0];
    if (!sent || !received) return [];
    const side =
      QUOTE_SYMBOLS.has(received.token_symbol.toUpperCase()) && !QUOTE_SYMBOLS.has(sent.token_symbol.toUpperCase())
        ? "sell"
        : "buy";
    const token = side === "buy" ? received : sent;
    const valueUsd = tx.volume_usd ?? token.value_usd ?? 0;
    const row = byToken.get(token.token_address.toLowerCase());
    let pnlUsd = 0;
    if (side === "buy" && row?.token_price != null) pnlUsd = token.token_amount * row.token_price - valueUsd;
    if (side === "sell" && row?.bought_amount)
      pnlUsd = valueUsd - (token.token_amount * (row.bought_usd ?? 0)) / row.bought_amount;
    return [
      {
        tokenSymbol: token.token_symbol,
        tokenAddress: token.token_address,
        side,
        valueUsd,
        timestamp: tx.block_timestamp,
        pnlUsd,
      },
    ];
  });
}

export function mapBalances(body: z.infer<typeof balancesSchema>): Role.HoldingRecord[] {
  return body.data.map((r) => ({
    tokenSymbol: r.token_symbol,
    tokenAddress: r.token_address,
    amount: r.token_amount,
    valueUsd: r.value_usd ?? 0,
  }));
}

/** Net flows and wallet counts; undefined when Nansen has no row for the token. */
export function mapFlowIntel(body: z.infer<typeof flowIntelSchema>): Role.FlowIntelRecord | undefined {
  const row = body.data[0];
  if (!row) return undefined;
  const category = (net: number, walletCount: number): Role.CategoryFlowRecord => ({
    netFlowUsd: net,
    buyVolumeUsd: Math.max(net, 0),
    sellVolumeUsd: Math.max(-net, 0),
    walletCount,
  });
  return {
    smartTrader: category(row.smart_trader_net_flow_usd ?? 0, row.smart_trader_wallet_count ?? 0),
    whale: category(row.whale_net_flow_usd ?? 0, row.whale_wallet_count ?? 0),
    publicFigure: category(row.public_figure_net_flow_usd ?? 0, row.public_figure_wallet_count ?? 0),
  };
}

export function mapScreener(
  netflow: z.infer<typeof netflowSchema>,
  screener: z.infer<typeof screenerSchema>,
  window: Role.FlowWindow,
): Role.ScreenerRecord[] {
  const field = NETFLOW_FIELD[window];
  const prices = new Map(screener.data.map((r) => [r.token_address.toLowerCase(), r.price_usd]));
  return netflow.data.flatMap((r) => {
    const chain = r.chain as Role.LabeledChain;
    if (!field || !LABELED_CHAINS.has(chain)) return [];
    return [
      {
        chain,
        tokenAddress: r.token_address,
        tokenSymbol: r.token_symbol,
        priceUsd: prices.get(r.token_address.toLowerCase()) ?? 0,
        marketCapUsd: r.market_cap_usd ?? 0,
        tokenAgeDays: r.token_age_days ?? 0,
        smartMoneyNetflowUsd: r[field] ?? 0,
        smartMoneyTraders: r.trader_count ?? 0,
        whaleTraders: 0,
      },
    ];
  });
}

/** Per-token leaderboards summed per trader. The win rate is the share of the trader's tokens in profit. */
export function mapLeaderboard(boards: z.infer<typeof leaderboardSchema>[]): Role.LeaderboardRecord[] {
  const traders = new Map<
    string,
    { rows: z.infer<typeof leaderboardSchema>["data"]; label: string | null | undefined }
  >();
  for (const row of boards.flatMap((b) => b.data)) {
    const entry = traders.get(row.trader_address) ?? { rows: [], label: row.trader_address_label };
    entry.rows.push(row);
    traders.set(row.trader_address, entry);
  }
  return [...traders].map(([traderAddress, { rows, label }]) => {
    const realized = sum(rows, (r) => r.pnl_usd_realised);
    const unrealized = sum(rows, (r) => r.pnl_usd_unrealised);
    const traded = sum(rows, (r) => (r.bought_usd ?? 0) + (r.sold_usd ?? 0));
    return {
      traderAddress,
      labels: label ? [roleLabel(label)] : [],
      realizedPnlUsd: realized,
      unrealizedPnlUsd: unrealized,
      roiPct: traded > 0 ? ((realized + unrealized) / traded) * 100 : 0,
      tradedTimes: sum(rows, (r) => (r.nof_buys ?? 0) + (r.nof_sells ?? 0)),
      winRate: rows.filter((r) => (r.pnl_usd_realised ?? 0) + (r.pnl_usd_unrealised ?? 0) > 0).length / rows.length,
    };
  });
}

export interface NansenOptions {
  http: UpstreamHttp;
  clock: Clock;
  apiKey: string;
  baseUrl?: string;
}

export function createNansenLabels({ baseUrl = NANSEN_URL, ...rest }: NansenOptions): Role.WalletLabelsProvider {
  const nansen: Nansen = { ...rest, baseUrl };
  return { source: "nansen", ...walletReads(nansen), ...smartMoneyReads(nansen) };
}

/** The options with their default host. */
type Nansen = Required<NansenOptions>;

/** A POST to Nansen with the key, its answer validated. */
const post = <T>({ http, apiKey, baseUrl }: Nansen, path: string, body: object, schema: z.ZodType<T>) =>
  http.json({ url: `${baseUrl}${path}`, method: "POST", headers: { apiKey }, body }, schema);

/** The `date` window of the last `ms` milliseconds. */
const since = ({ clock }: Nansen, ms: number) => ({
  from: new Date(clock.now() - ms).toISOString(),
  to: new Date(clock.now()).toISOString(),
});

const pnlRows = (nansen: Nansen, { chain, address }: Role.WalletRef, ms: number) =>
  post(
    nansen,
    "/api/v1/profiler/address/pnl",
    { address, chain, date: since(nansen, ms), pagination: { page: 1, per_page: PAGE } },
    pnlRowsSchema,
  );

function netflow(nansen: Nansen, chains: Role.LabeledChain[], window: Role.FlowWindow | Role.PnlWindow) {
  const { http } = nansen;
  const field = NETFLOW_FIELD[window];
  if (!field) throw upstreamError(http.source, `${http.source} serves no smart-money netflow over ${window}.`);
  const body = { chains, order_by: [{ field, direction: "DESC" }], pagination: { page: 1, per_page: PAGE } };
  return post(nansen, "/api/v1/smart-money/netflow", body, netflowSchema);
}

type WalletReads = Pick<
  Role.WalletLabelsProvider,
  "labels" | "pnlSummary" | "trades" | "balances" | "firstTransactionAt"
>;

/** What Nansen's profiler knows of one wallet. */
function walletReads(nansen: Nansen): WalletReads {
  const { clock } = nansen;
  return {
    async labels({ chain, address }) {
      const body = { parameters: { address, chain }, pagination: { page: 1, per_page: PAGE } };
      return mapLabels(await post(nansen, "/api/beta/profiler/address/labels", body, labelsSchema));
    },
    async pnlSummary(wallet, window) {
      const date = since(nansen, windowMs(window));
      const [summary, rows] = await Promise.all([
        post(nansen, "/api/v1/profiler/address/pnl-summary", { ...wallet, date }, pnlSummarySchema),
        pnlRows(nansen, wallet, windowMs(window)),
      ]);
      return mapPnlSummary(summary, rows);
    },
    async trades(wallet, limit) {
      const order = [{ field: "block_timestamp", direction: "DESC" }];
      const body = {
        ...wallet,
        date: since(nansen, TRADES_LOOKBACK_MS),
        order_by: order,
        pagination: { page: 1, per_page: limit },
      };
      const [txs, rows] = await Promise.all([
        post(nansen, "/api/v1/profiler/address/transactions", body, transactionsSchema),
        pnlRows(nansen, wallet, TRADES_LOOKBACK_MS),
      ]);
      return mapTrades(txs, rows).slice(0, limit);
    },
    async balances(wallet) {
      const body = { ...wallet, hide_spam_token: true };
      return mapBalances(await post(nansen, "/api/v1/profiler/address/current-balance", body, balancesSchema));
    },
    async firstTransactionAt(wallet) {
      const body = {
        ...wallet,
        date: { from: HISTORY_START, to: new Date(clock.now()).toISOString() },
        order_by: [{ field: "block_timestamp", direction: "ASC" }],
        pagination: { page: 1, per_page: 1 },
      };
      const first = (await post(nansen, "/api/v1/profiler/address/transactions", body, transactionsSchema)).data[0];
      return first?.block_timestamp;
    },
  };
}

/** What smart money does with tokens: a token's flows, the screener and the PnL leaderboard. */
function smartMoneyReads(
  nansen: Nansen,
): Pick<Role.WalletLabelsProvider, "flowIntelligence" | "tokenScreener" | "pnlLeaderboard"> {
  const { http, apiKey, baseUrl } = nansen;
  return {
    async flowIntelligence({ chain, tokenAddress }, window) {
      const body = { token_address: tokenAddress, chain, timeframe: window };
      const found = await http.jsonOrMissing(
        { url: `${baseUrl}/api/v1/tgm/flow-intelligence`, method: "POST", headers: { apiKey }, body },
        flowIntelSchema,
      );
      return found && mapFlowIntel(found);
    },
    async tokenScreener(chains, window) {
      const screenerWindow = window === "1d" ? "24h" : window;
      const [flows, screener] = await Promise.all([
        netflow(nansen, chains, window),
        post(
          nansen,
          "/api/v1/token-screener",
          { chains, timeframe: screenerWindow, pagination: { page: 1, per_page: PAGE } },
          screenerSchema,
        ),
      ]);
      return mapScreener(flows, screener, window);
    },
    async pnlLeaderboard(chain, window) {
      const top = (await netflow(nansen, [chain], window)).data.slice(0, LEADERBOARD_TOKENS);
      const boards = await Promise.all(
        top.map((t) =>
          post(
            nansen,
            "/api/v1/tgm/pnl-leaderboard",
            {
              token_address: t.token_address,
              chain,
              date: since(nansen, windowMs(window)),
              pagination: { page: 1, per_page: PAGE },
            },
            leaderboardSchema,
          ),
        ),
      );
      return mapLeaderboard(boards);
    },
  };
}
