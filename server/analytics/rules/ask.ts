/**
 * `/ask` routing: which specific endpoints a free-text question is about. A keyword score per
 * endpoint, most relevant first; a question that names nothing specific gets the general DeFi
 * context endpoints.
 */

const TOPICS: { words: RegExp; endpoints: string[] }[] = [
  {
    words: /\b(yield|yields|apy|earn|earning|interest|stak\w*|farm\w*|lend\w*|stable ?coins?|usdc|usdt)\b/i,
    endpoints: ["/defi/yields", "/lp/pools-recommend", "/bridge/yield-migrate"],
  },
  { words: /\b(tvl|total value locked|chains?|ecosystems?|protocols?)\b/i, endpoints: ["/defi/tvl", "/defi/yields"] },
  {
    words: /\b(apr|pools?|liquidity|lp|dlmm|meteora|bins?)\b/i,
    endpoints: ["/lp/pools", "/lp/pools-recommend", "/lp/pool-detail", "/lp/pools-strategy"],
  },
  {
    words: /\b(rebalanc\w*|out of range|in range|my positions?|range)\b/i,
    endpoints: ["/lp/position-rebalance", "/lp/wallet-positions"],
  },
  {
    words: /\b(new tokens?|launch\w*|pump\.?fun|memecoins?|memes?|snip\w*|fresh)\b/i,
    endpoints: ["/trenches/new-tokens", "/trenches/token-verdict", "/trenches/alt-launchpad/new-tokens"],
  },
  { words: /\b(graduat\w*|bonding curves?|curve)\b/i, endpoints: ["/trenches/graduating", "/trenches/curve"] },
  {
    words: /\b(rug\w*|safe|scam|authorit\w*|holders?|dev wallet)\b/i,
    endpoints: ["/trenches/token-verdict", "/trenches/token", "/trenches/token-snipers"],
  },
  {
    words: /\b(wallets?|traders?|copy|follow|pnl|profit\w*)\b/i,
    endpoints: ["/traders/wallet-intel", "/traders/top-wallets", "/traders/wallet-pnl", "/smartmoney/wallet-intel"],
  },
  {
    words: /\b(whales?|smart money|flows?|accumulat\w*|distribut\w*|kols?|influencers?)\b/i,
    endpoints: ["/smartmoney/flow-intel", "/smartmoney/token-screener", "/traders/token-whales"],
  },
  {
    words: /\b(leaderboard|best traders?|top traders?)\b/i,
    endpoints: ["/smartmoney/pnl-leaderboard", "/traders/top-wallets"],
  },
  {
    words: /\b(bridge|bridging|cross[- ]chain|move (my )?funds|transfer|swap)\b/i,
    endpoints: ["/bridge/quote", "/bridge/yield-migrate"],
  },
  { words: /\b(price|chart|candles?|ohlcv|pump(ing)?|dump(ing)?)\b/i, endpoints: ["/traders/token-ohlcv"] },
];

const GENERAL = ["/defi/yields", "/defi/tvl", "/lp/pools"];
export const MAX_ENDPOINTS = 5;

/** Endpoints relevant to the question, most relevant first (at most 5). */
export function routeQuestion(query: string): string[] {
  const scores = new Map<string, number>();
  for (const topic of TOPICS) {
    if (!topic.words.test(query)) continue;
    // earlier endpoints of a topic are its main answer
    for (const [rank, endpoint] of topic.endpoints.entries())
      scores.set(endpoint, (scores.get(endpoint) ?? 0) + 1 - rank * 0.1);
  }
  if (scores.size === 0) return [...GENERAL];
  return [...scores.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, MAX_ENDPOINTS)
    .map(([endpoint]) => endpoint);
}
