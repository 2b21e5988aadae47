/**
 * The entities the contract's examples name (spec/analytics/*.tsp, written into
 * generated/openapi/3.1/analytics.json). Integrators, the Prism mock and the conformance suite send
 * the request examples to the offline server, so the embedded market holds each of these as one of
 * its own members: the venue's flagship pool, a long-held position of an LP wallet, a long-lived
 * launch. segments/examples.test.ts sends every request example to its handler.
 *
 * Typed here rather than read from the document: the curve, the dev wallet and the names appear in
 * response examples only, and the market should not depend on a generated file.
 */
import { solanaAddress } from "./random.js";

export const CONTRACT_EXAMPLES = {
  /** lp.tsp `solUsdcPool` (request examples of lpPoolDetail, its legacy GET, lpPoolsStrategy): SOL-USDC at bin step 4. */
  pool: "5rCf1DM8LjKTw4YqhnoLcngyZYeNnQqztScTogYHAS6",
  /** lp.tsp `solUsdcPosition` (request example of lpPositionRebalance): a position in `pool` owned by `wallet`. */
  position: { address: "3xYpNe9Rk7Ew4ZuQmT2vHc8LbW6sDfGa1JoKqP5nMhUr", openedAt: Date.parse("2026-11-14T08:21:40Z") },
  /** traders.tsp `walletAddressExample` (request examples of lpWalletPositions and the traders wallet operations). */
  wallet: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
  /**
   * trenches.tsp `newTokenExample` and `curveAnswer` (request examples of the trenches token operations, traders
   * token-whales and token-ohlcv): a pump.fun token with its bonding curve and dev wallet.
   */
  launch: {
    mint: "7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr",
    curve: "53eum63MmmmKaHkohpDzpGHGWi4C5FkTUNuCCMgXTsAD",
    dev: "8J4JqXWkYkZq6dhYyYxBzkhJbRyg3QTXyQxK2eqPN3Fv",
    name: "Orbit Cat",
    symbol: "ORCAT",
  },
} as const;

/**
 * On mainnet the example launch's mint is Popcat's. The embedded market gives Popcat (a blue chip
 * and a venue pool's base token) a mint of its own, so that one address names one token.
 */
export const EMBEDDED_POPCAT_MINT = solanaAddress("embedded-market", "mint:POPCAT");
