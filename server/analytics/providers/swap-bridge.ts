/**
 * Swap and bridge quote role (LI.FI in production, with Jupiter for same-chain Solana swaps).
 * Records follow LI.FI: a token lookup (`GET /v1/token`) and a quote (`GET /v1/quote`) whose
 * amounts are raw integers in the token's smallest unit (as bigint), with USD values beside them.
 */

/** Chains the role routes between; an adapter maps them to the aggregator's chain ids. */
export type SwapChain = "ethereum" | "solana" | "base" | "arbitrum" | "optimism" | "polygon";

/** A token on one chain (`/v1/token`). */
export interface SwapTokenRecord {
  chain: SwapChain;
  /** Contract address, mint, or the zero address for a native EVM gas token. */
  address: string;
  symbol: string;
  decimals: number;
  priceUsd: number;
}

export interface QuoteRequest {
  fromChain: SwapChain;
  toChain: SwapChain;
  fromToken: SwapTokenRecord;
  toToken: SwapTokenRecord;
  /** Raw integer amount to send. */
  fromAmount: bigint;
  /** Maximum slippage as a fraction (0.005 = 0.5 %), as LI.FI takes it. */
  slippage: number;
  fromAddress?: string;
}

/** One step of a route (`includedSteps[]`): a same-chain `swap` or a `cross`-chain transfer. */
export interface QuoteStepRecord {
  type: "swap" | "cross";
  tool: string;
  fromChain: SwapChain;
  toChain: SwapChain;
}

/** A cost of the route in USD (`estimate.feeCosts[]` / `estimate.gasCosts[]`). */
export interface QuoteCost {
  name: string;
  amountUsd: number;
}

/** The best route found (`/v1/quote`). */
export interface QuoteRecord {
  /** The route's main tool (`tool`): its bridge, or its DEX for a same-chain swap. */
  tool: string;
  fromToken: SwapTokenRecord;
  toToken: SwapTokenRecord;
  fromAmount: bigint;
  toAmount: bigint;
  /** `toAmount` less the slippage allowance. */
  toAmountMin: bigint;
  fromAmountUsd: number;
  toAmountUsd: number;
  /** Protocol and bridge fees, deducted from the amount sent. */
  feeCosts: QuoteCost[];
  /** Gas on the source chain, paid on top. */
  gasCosts: QuoteCost[];
  /** `estimate.executionDuration`, seconds. */
  executionDurationS: number;
  steps: QuoteStepRecord[];
}

export interface SwapBridgeProvider {
  /** Lowercase id reported in `sources`. */
  readonly source: string;
  /** A token by symbol (case-insensitive) or address on a chain; undefined when the aggregator does not list it. */
  token(chain: SwapChain, symbolOrAddress: string): Promise<SwapTokenRecord | undefined>;
  /** The best route (LI.FI's recommended order); undefined when no route exists (for instance when fees exceed the amount). */
  quote(request: QuoteRequest): Promise<QuoteRecord | undefined>;
}

/** Token units to the raw integer amount (`250.5` USDC → `250500000n`), without float error past the decimals. */
export function toBaseUnits(amount: number, decimals: number): bigint {
  // toFixed switches to exponent notation from 1e21; such doubles are integers already.
  if (amount >= 1e21) return BigInt(amount) * 10n ** BigInt(decimals);
  const [whole = "0", fraction = ""] = amount.toFixed(decimals).split(".");
  return BigInt(whole + fraction);
}

/** Raw integer amount to token units. */
export function fromBaseUnits(raw: bigint, decimals: number): number {
  const unit = 10n ** BigInt(decimals);
  return Number(raw / unit) + Number(raw % unit) / Number(unit);
}
