/**
 * Facts of the service's interface (the product brief the contract implements, kept outside this
 * repository), transcribed as data: the independent oracle the generated documents (and, later,
 * running servers) are held against. Where the interface is silent, the values are the contract's
 * documented choices and are marked as such.
 */

/** Price per request in USD, from the interface's price table. */
export const PRICES = {
  "/ask": "0.025",
  "/defi/tvl": "0.001",
  "/defi/yields": "0.002",
  "/lp/pools": "0.001",
  "/lp/pools-recommend": "0.008",
  "/lp/pool-detail": "0.003",
  "/lp/wallet-positions": "0.004",
  "/lp/position-rebalance": "0.010",
  "/lp/pools-strategy": "0.020",
  "/trenches/new-tokens": "0.008",
  "/trenches/curve": "0.001",
  "/trenches/token": "0.002",
  "/trenches/token-snipers": "0.004",
  "/trenches/graduating": "0.003",
  "/trenches/alt-launchpad/new-tokens": "0.008",
  "/trenches/token-verdict": "0.015",
  "/traders/wallet-pnl": "0.005",
  "/traders/wallet-positions": "0.003",
  "/traders/top-wallets": "0.008",
  "/traders/token-whales": "0.003",
  "/traders/token-ohlcv": "0.002",
  "/traders/wallet-intel": "0.012",
  "/bridge/quote": "0.002",
  "/bridge/yield-migrate": "0.005",
  "/smartmoney/token-screener": "0.025",
  "/smartmoney/flow-intel": "0.020",
  "/smartmoney/pnl-leaderboard": "0.030",
  "/smartmoney/wallet-intel": "0.050",
} as const;

export type PaidPath = keyof typeof PRICES;
export const PAID_PATHS = Object.keys(PRICES) as PaidPath[];

/** URL prefixes and the chain family each settles on. Root takes only the first network (Solana). */
export const PREFIXES = [
  { prefix: "", family: "svm", mainnet: "solana", testnet: "solana-devnet" },
  { prefix: "/base", family: "evm", mainnet: "base", testnet: "base-sepolia" },
  { prefix: "/skale", family: "evm", mainnet: "skale-base", testnet: "skale-base-sepolia" },
] as const;

/** Signal vocabulary by segment. */
export const SEGMENT_SIGNALS = {
  trenchesTokens: ["snipe", "watch", "avoid"],
  trenchesGraduation: ["graduate_soon", "watch"],
  traders: ["follow", "ignore"],
  tradersHoldings: ["accumulate", "distribute", "ignore"],
  lps: ["add_liquidity", "rebalance", "hold", "remove"],
  defi: ["high_yield", "medium_yield", "low_yield", "risky"],
  bridgeQuote: ["execute", "wait", "avoid"],
  bridgeYield: ["migrate", "stay", "wait"],
  smartMoney: ["follow", "ignore", "accumulate", "distribute"],
} as const;

const S = SEGMENT_SIGNALS;
const allSignals = [...new Set(Object.values(S).flat())];

/**
 * Signals each endpoint may answer. The interface names them for the endpoints it details; for
 * the priced-only endpoints they are the contract's choices within their segment's vocabulary.
 */
export const ENDPOINT_SIGNALS: Record<PaidPath, readonly string[]> = {
  "/ask": allSignals,
  "/defi/tvl": S.defi,
  "/defi/yields": S.defi,
  "/lp/pools": ["add_liquidity", "hold"],
  "/lp/pools-recommend": ["add_liquidity", "hold"],
  "/lp/pool-detail": ["add_liquidity", "hold", "remove"],
  "/lp/wallet-positions": S.lps,
  "/lp/position-rebalance": ["rebalance", "hold", "remove"],
  "/lp/pools-strategy": ["add_liquidity", "hold"],
  "/trenches/new-tokens": S.trenchesTokens,
  "/trenches/curve": S.trenchesGraduation,
  "/trenches/token": S.trenchesTokens,
  "/trenches/token-snipers": S.trenchesTokens,
  "/trenches/graduating": S.trenchesGraduation,
  "/trenches/alt-launchpad/new-tokens": S.trenchesTokens,
  "/trenches/token-verdict": S.trenchesTokens,
  "/traders/wallet-pnl": S.traders,
  "/traders/wallet-positions": S.tradersHoldings,
  "/traders/top-wallets": S.traders,
  "/traders/token-whales": S.tradersHoldings,
  "/traders/token-ohlcv": S.tradersHoldings,
  "/traders/wallet-intel": S.traders,
  "/bridge/quote": S.bridgeQuote,
  "/bridge/yield-migrate": S.bridgeYield,
  "/smartmoney/token-screener": ["accumulate", "distribute", "ignore"],
  "/smartmoney/flow-intel": ["accumulate", "distribute", "ignore"],
  "/smartmoney/pnl-leaderboard": S.traders,
  "/smartmoney/wallet-intel": S.traders,
};

/** `limit` bounds: the interface's maxima and defaults; graduating's maximum (50) is the contract's choice. */
export const LIMITS: Partial<Record<PaidPath, { max: number; default: number }>> = {
  "/defi/tvl": { max: 50, default: 20 },
  "/defi/yields": { max: 50, default: 20 },
  "/lp/pools": { max: 100, default: 50 },
  "/trenches/new-tokens": { max: 100, default: 10 },
  "/trenches/graduating": { max: 50, default: 10 },
  "/smartmoney/token-screener": { max: 50, default: 20 },
};

/** Legacy GETs the interface shows: path (under each prefix), the POST twin, and the parameters it puts in the query or path. */
export const LEGACY = [
  { path: "/defi/tvl", of: "/defi/tvl", query: ["chain", "limit"], pathParams: [] },
  { path: "/defi/yields", of: "/defi/yields", query: ["chain", "stablecoin", "min_apy", "limit"], pathParams: [] },
  { path: "/lp/{venue}/pools", of: "/lp/pools", query: ["sort", "limit"], pathParams: ["venue"] },
  { path: "/lp/{venue}/pools/{address}", of: "/lp/pool-detail", query: [], pathParams: ["venue", "address"] },
  { path: "/trenches/new-tokens", of: "/trenches/new-tokens", query: ["limit"], pathParams: [] },
  { path: "/trenches/graduating", of: "/trenches/graduating", query: ["limit"], pathParams: [] },
  { path: "/trenches/token/{mint}/verdict", of: "/trenches/token-verdict", query: [], pathParams: ["mint"] },
  { path: "/traders/wallet/{address}/intel", of: "/traders/wallet-intel", query: [], pathParams: ["address"] },
] as const satisfies readonly { path: string; of: PaidPath; query: readonly string[]; pathParams: readonly string[] }[];

/**
 * The endpoints whose legacy GET the interface does not show, though "every endpoint also accepts a
 * legacy GET: parameters go in the query string". The contract's choice: a GET at the POST path with
 * every body field in the query string.
 */
export const UNSHOWN_LEGACY: readonly PaidPath[] = PAID_PATHS.filter(
  (path) => !LEGACY.some((legacy) => legacy.of === path),
);

/** JSON types as the interface states them ("number" admits integers). */
export type FieldType =
  | "string"
  | "number"
  | "integer"
  | "boolean"
  | "object"
  | "array"
  | "string|null"
  | "number|null";

/** Request fields of the detailed endpoints: name → [type, required]. */
export const REQUEST_FIELDS: Partial<Record<PaidPath, Record<string, [FieldType, boolean]>>> = {
  "/ask": { query: ["string", true] },
  "/defi/tvl": { chain: ["string", false], protocol: ["string", false], limit: ["integer", false] },
  "/defi/yields": {
    chain: ["string", false],
    stablecoin: ["string", false],
    min_apy: ["number", false],
    limit: ["integer", false],
  },
  "/lp/pools": {
    sort: ["string", false],
    limit: ["integer", false],
    token: ["string", false],
    base: ["string", false],
    quote: ["string", false],
    min_tvl: ["number", false],
  },
  "/lp/pool-detail": { address: ["string", true] },
  "/lp/pools-recommend": {
    base: ["string", false],
    quote: ["string", false],
    strategy: ["string", false],
    risk: ["string", false],
  },
  "/trenches/new-tokens": { limit: ["integer", false] },
  "/trenches/graduating": { limit: ["integer", false] },
  "/trenches/token-verdict": { mint: ["string", true], curve_key: ["string", false] },
  "/traders/wallet-intel": { address: ["string", true] },
  "/smartmoney/wallet-intel": { chain: ["string", true], address: ["string", true] },
  "/smartmoney/flow-intel": { chain: ["string", true], token_address: ["string", true], timeframe: ["string", false] },
  "/smartmoney/token-screener": {
    chains: ["string", false],
    only_smart_money: ["boolean", false],
    token_age_days: ["number", false],
    market_cap_min: ["number", false],
    market_cap_max: ["number", false],
    limit: ["integer", false],
  },
};

/** Request defaults and enums the interface states. */
export const REQUEST_DEFAULTS: Partial<Record<PaidPath, Record<string, unknown>>> = {
  "/defi/tvl": { chain: "all", limit: 20 },
  "/defi/yields": { chain: "all", limit: 20 },
  "/lp/pools": { sort: "apr", limit: 50, min_tvl: 0 },
  "/lp/pools-recommend": { base: "SOL", quote: "USDC", strategy: "spot", risk: "mid" },
  "/trenches/new-tokens": { limit: 10 },
  "/trenches/graduating": { limit: 10 },
  "/smartmoney/flow-intel": { timeframe: "7d" },
  "/smartmoney/token-screener": { chains: "solana", only_smart_money: true, limit: 20 },
};

export const REQUEST_ENUMS: Partial<Record<PaidPath, Record<string, readonly string[]>>> = {
  "/lp/pools": { sort: ["apr", "volume", "tvl"] },
  "/lp/pools-recommend": { strategy: ["spot", "curve", "bidask"], risk: ["low", "mid", "high"] },
  "/smartmoney/wallet-intel": { chain: ["ethereum", "solana", "base", "arbitrum"] },
  "/smartmoney/flow-intel": {
    chain: ["ethereum", "solana", "base", "arbitrum"],
    timeframe: ["5m", "1h", "6h", "12h", "1d", "7d"],
  },
};

const token = { symbol: "string", mint: "string" } as const;

/**
 * `data` fields the interface names, as dotted paths (`[]` steps into array items) with their
 * types. Every one must exist in the operation's 200 `data` schema with that type.
 */
export const DATA_FIELDS: Partial<Record<PaidPath, Record<string, FieldType>>> = {
  "/defi/tvl": {
    "chains[].name": "string",
    "chains[].tvl_usd": "number",
    "chains[].token_symbol": "string",
    total_tvl_usd: "number",
    "filter.chain": "string",
    "filter.protocol": "string|null",
  },
  "/defi/yields": {
    "pools[].pool": "string",
    "pools[].project": "string",
    "pools[].chain": "string",
    "pools[].apy_pct": "number",
    "pools[].tvl_usd": "number",
    "pools[].stablecoin": "boolean",
    "pools[].il_risk": "string",
    "pools[].reward_tokens[]": "string",
    "filter.chain": "string",
    "filter.stablecoin": "boolean",
    "filter.min_apy": "number|null",
  },
  "/lp/pools": {
    "pools[].address": "string",
    "pools[].name": "string",
    "pools[].bin_step": "integer",
    "pools[].base_fee_pct": "number",
    "pools[].tvl_usd": "number",
    "pools[].volume_24h_usd": "number",
    "pools[].fees_24h_usd": "number",
    "pools[].apr_pct": "number",
    "pools[].token_x.symbol": token.symbol,
    "pools[].token_x.mint": token.mint,
    "pools[].token_y.symbol": token.symbol,
    "pools[].token_y.mint": token.mint,
    total_pools: "integer",
    sort: "string",
    "filter.min_tvl": "number",
  },
  "/lp/pool-detail": {
    "pool.address": "string",
    "pool.name": "string",
    "pool.bin_step": "integer",
    "pool.base_fee_pct": "number",
    "pool.current_price": "number",
    "pool.tvl_usd": "number",
    "pool.volume_24h_usd": "number",
    "pool.volume_7d_usd": "number",
    "pool.fees_24h_usd": "number",
    "pool.fees_7d_usd": "number",
    "pool.apr_24h_pct": "number",
    "pool.apr_7d_pct": "number",
    "pool.active_bin_id": "integer",
    "pool.total_positions": "integer",
    "volume_history[].date": "string",
    "volume_history[].volume_usd": "number",
  },
  "/lp/pools-recommend": {
    "recommended_pool.address": "string",
    "recommended_pool.name": "string",
    "recommended_pool.bin_step": "integer",
    "recommended_pool.tvl_usd": "number",
    "recommended_pool.apr_pct": "number",
    "recommended_pool.volume_24h_usd": "number",
    "strategy.distribution": "string",
    "strategy.suggested_range_pct": "number",
    "strategy.risk_level": "string",
    "strategy.expected_apr_low": "number",
    "strategy.expected_apr_high": "number",
    "strategy.il_risk": "string",
    "alternatives[].address": "string",
    "alternatives[].name": "string",
    "alternatives[].bin_step": "integer",
    "alternatives[].tvl_usd": "number",
    "alternatives[].apr_pct": "number",
  },
  "/trenches/new-tokens": {
    "tokens[].mint": "string",
    "tokens[].name": "string",
    "tokens[].symbol": "string",
    "tokens[].platform": "string",
    "tokens[].initial_buy_sol": "number",
    "tokens[].market_cap_sol": "number",
    "tokens[].created_at": "string",
    "tokens[].bonding_curve_key": "string",
    "tokens[].dev_wallet": "string",
  },
  "/trenches/graduating": {
    "graduating[].mint": "string",
    "graduating[].name": "string",
    "graduating[].symbol": "string",
    "graduating[].progress_pct": "number",
    "graduating[].sol_in_curve": "number",
    "graduating[].estimated_hours_remaining": "number",
    "graduating[].holders": "number",
    "graduating[].urgency": "string",
    total_found: "integer",
  },
  "/trenches/token-verdict": {
    "token.mint": "string",
    "token.name": "string",
    "token.symbol": "string",
    "token.holders": "number",
    "token.top_holders_pct": "number",
    "token.dev_wallet": "string",
    "token.dev_holds_pct": "number",
    "token.freeze_authority": "string|null",
    "token.mint_authority": "string|null",
    "snipers.count": "number",
    "snipers.total_pct": "number",
    "snipers.risk_level": "string",
    "curve.progress_pct": "number",
    "curve.sol_in_curve": "number",
    "curve.estimated_graduation_hours": "number",
  },
  "/traders/wallet-intel": {
    address: "string",
    period: "string",
    archetype: "string",
    win_rate_pct: "number",
    total_trades: "number",
    avg_hold_hours: "number",
    net_pnl_usd: "number",
    best_trade_pnl_usd: "number",
    worst_trade_pnl_usd: "number",
    specialty: "string",
    copy_worthiness: "number",
    current_positions: "number",
    portfolio_value_usd: "number",
  },
  "/smartmoney/wallet-intel": {
    address: "string",
    chain: "string",
    "labels[]": "string",
    "pnl_summary.realized_pnl_usd": "number",
    "pnl_summary.unrealized_pnl_usd": "number",
    "pnl_summary.total_pnl_usd": "number",
    "pnl_summary.win_rate_pct": "number",
    "pnl_summary.total_trades": "number",
    archetype: "string",
    "recent_smart_trades[].token": "string",
    "recent_smart_trades[].action": "string",
    "recent_smart_trades[].amount_usd": "number",
    "recent_smart_trades[].timestamp": "string",
    "recent_smart_trades[].pnl_usd": "number",
    portfolio_value_usd: "number",
    active_since: "string",
  },
  "/smartmoney/flow-intel": Object.fromEntries([
    ["token", "string"],
    ["chain", "string"],
    ["timeframe", "string"],
    ["total_net_flow_usd", "number"],
    ...["smart_traders", "whales", "kols"].flatMap((bucket) =>
      ["net_flow_usd", "buy_volume_usd", "sell_volume_usd", "unique_wallets"].map((f) => [
        `flows.${bucket}.${f}`,
        "number",
      ]),
    ),
  ]) as Record<string, FieldType>,
  "/smartmoney/token-screener": {
    "tokens[].symbol": "string",
    "tokens[].chain": "string",
    "tokens[].address": "string",
    "tokens[].market_cap_usd": "number",
    "tokens[].price_usd": "number",
    "tokens[].smart_money_net_flow_7d_usd": "number",
    "tokens[].smart_money_wallets": "number",
    "tokens[].whale_wallets": "number",
    "tokens[].token_age_days": "number",
    total_matches: "number",
    "filters.chains[]": "string",
    "filters.only_smart_money": "boolean",
    "filters.market_cap_min": "number|null",
    "filters.market_cap_max": "number|null",
  },
  "/ask": {
    query: "string",
    "context.top_chains_by_tvl[].name": "string",
    "context.top_chains_by_tvl[].tvl_usd": "number",
    "context.top_meteora_pools_by_apr[].name": "string",
    "context.top_meteora_pools_by_apr[].apr_pct": "number",
    "context.top_meteora_pools_by_apr[].tvl_usd": "number",
    "available_endpoints[]": "string",
  },
};

/** Closed value sets the interface names inside `data`. */
export const DATA_ENUMS: Partial<Record<PaidPath, Record<string, readonly string[]>>> = {
  "/trenches/new-tokens": { "tokens[].platform": ["pumpfun"] },
  "/trenches/graduating": { "graduating[].urgency": ["high", "medium"] },
  "/traders/wallet-intel": {
    period: ["30d"],
    archetype: ["sniper", "swing_trader", "accumulator", "whale", "degen", "lp_farmer", "inactive"],
  },
  "/lp/pools-recommend": {
    "strategy.distribution": ["spot", "curve", "bidask"],
    "strategy.risk_level": ["low", "mid", "high"],
  },
  "/smartmoney/wallet-intel": {
    "labels[]": ["Smart Money", "Whale", "Fund", "Early Adopter", "DEX Trader", "NFT Trader"],
  },
};

/** Envelope fields: name → [type, required]. */
export const ENVELOPE_FIELDS: Record<string, [FieldType, boolean]> = {
  data: ["object", true],
  insight: ["string|null", false],
  signal: ["string", true],
  confidence: ["number", true],
  sources: ["array", true],
  model_used: ["string|null", false],
  latency_ms: ["integer", true],
  timestamp: ["string", true],
};

/** Free endpoints of the analytics service. */
export const FREE_PATHS = ["/", "/openapi.json", "/.well-known/agent-card.json", "/.well-known/x402"] as const;

/** Registry read endpoints (GET only); those naming an agent answer 404 for unknown names. */
export const REGISTRY_PATHS = [
  { path: "/manifest/{name}", named: true },
  { path: "/api/agents", named: false },
  { path: "/api/agents/{name}/exists", named: false },
  { path: "/api/agent/primary-alias/{name}", named: true },
  { path: "/api/said-card/{name}", named: true },
  { path: "/api/skills", named: false },
] as const;

/** Registry object fields: [type, required]. */
export const REGISTRY_FIELDS = {
  AgentListItem: {
    name: ["string", true],
    assetAddress: ["string", true],
    ownerWallet: ["string", true],
    description: ["string", true],
    createdAt: ["integer", true],
    kind: ["string", false],
    displayName: ["string", false],
  },
  ExistenceResult: {
    name: ["string", true],
    normalized: ["string", true],
    exists: ["boolean", true],
    available: ["boolean", true],
    source: ["string", true],
  },
  AliasResult: {
    name: ["string", true],
    displayName: ["string", true],
    passportHandle: ["string", true],
    displayHandle: ["string", true],
    primarySol: ["string|null", true],
    source: ["string", true],
  },
} as const satisfies Record<string, Record<string, readonly [FieldType, boolean]>>;
