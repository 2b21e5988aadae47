/**
 * Live TVL aggregator: DefiLlama's free API (docs/upstreams.md §1). Chains from `GET /v2/chains`,
 * protocols from `GET /protocols` (one call serves lookups by slug or by name), yield pools from
 * `GET yields.llama.fi/pools`. The two big lists are memoized for a few minutes so that lookups
 * of different protocols do not each download the multi-megabyte list again.
 */
import { z } from "zod";
import type { Clock } from "../../clock.js";
import type { ChainTvlRecord, ProtocolTvlRecord, TvlProvider, YieldPoolRecord } from "../tvl.js";
import { numeric, type UpstreamHttp } from "./http.js";

export const DEFILLAMA_API_URL = "https://api.llama.fi";
export const DEFILLAMA_YIELDS_URL = "https://yields.llama.fi";

/** How long a downloaded protocol or pool list serves lookups. */
const LIST_TTL_MS = 10 * 60_000;

const chainRow = z.object({ name: z.string(), tvl: numeric, tokenSymbol: z.string().nullish() });
export const chainsSchema = z.array(chainRow);

const protocolRow = z.object({
  name: z.string(),
  slug: z.string(),
  /** Current TVL per chain, with synthetic buckets (`staking`, `Ethereum-borrowed`, ...) beside the chains. */
  chainTvls: z.record(z.string(), numeric.nullable()).nullish(),
});
export const protocolsSchema = z.array(protocolRow);

const yieldRow = z.object({
  pool: z.string(),
  chain: z.string(),
  project: z.string(),
  symbol: z.string(),
  tvlUsd: numeric,
  apy: numeric.nullish(),
  apyBase: numeric.nullish(),
  apyReward: numeric.nullish(),
  rewardTokens: z.array(z.string()).nullish(),
  stablecoin: z.boolean().nullish(),
  ilRisk: z.enum(["yes", "no"]).nullish(),
  exposure: z.enum(["single", "multi"]).nullish(),
});
export const yieldsSchema = z.object({ status: z.string(), data: z.array(yieldRow) });

/** `chainTvls` keys that are not chains: borrowed, staked, pool2 and other double-counting buckets. */
const SYNTHETIC = new Set([
  "staking",
  "pool2",
  "borrowed",
  "doublecounted",
  "liquidstaking",
  "dcandlsoverlap",
  "vesting",
  "offers",
  "treasury",
]);

/**
 * Rollups that pay gas in ETH, where DefiLlama's `tokenSymbol` names their governance token (ARB, OP)
 * or nothing: `token_symbol` is the native gas token (interface), so these read ETH.
 */
const ETH_GAS = new Set([
  "Arbitrum",
  "Arbitrum Nova",
  "Optimism",
  "OP Mainnet",
  "Base",
  "Linea",
  "Scroll",
  "Blast",
  "zkSync Era",
  "Mode",
  "Zora",
  "Taiko",
  "Unichain",
  "Ink",
  "Soneium",
  "World Chain",
  "Abstract",
]);

export function mapChains(rows: z.infer<typeof chainsSchema>): ChainTvlRecord[] {
  return rows.map((row) => ({
    name: row.name,
    tvlUsd: row.tvl,
    tokenSymbol: ETH_GAS.has(row.name) ? "ETH" : (row.tokenSymbol ?? null),
  }));
}

/** The protocol whose slug or name matches (case-insensitive), with its plain per-chain TVL. */
export function mapProtocol(rows: z.infer<typeof protocolsSchema>, slugOrName: string): ProtocolTvlRecord | undefined {
  const wanted = slugOrName.trim().toLowerCase();
  const found =
    rows.find((row) => row.slug.toLowerCase() === wanted) ?? rows.find((row) => row.name.toLowerCase() === wanted);
  if (!found) return undefined;
  const chains = Object.entries(found.chainTvls ?? {})
    .filter(
      (entry): entry is [string, number] =>
        entry[1] !== null && !entry[0].includes("-") && !SYNTHETIC.has(entry[0].toLowerCase()),
    )
    .map(([name, tvlUsd]) => ({ name, tvlUsd }));
  return { slug: found.slug, name: found.name, chains };
}

/**
 * Pools with an APY. A null `apy` is the sum of its parts; a pool with no APY figure at all is left
 * out rather than shown at 0 %. Missing flags are derived from the symbol the way DefiLlama sets
 * them: a hyphenated symbol is a multi-asset pool, which bears IL unless it is a stablecoin pool.
 */
export function mapYieldPools(body: z.infer<typeof yieldsSchema>): YieldPoolRecord[] {
  return body.data.flatMap((row) => {
    const apy =
      row.apy ?? (row.apyBase == null && row.apyReward == null ? undefined : (row.apyBase ?? 0) + (row.apyReward ?? 0));
    if (apy === undefined) return [];
    const stablecoin = row.stablecoin ?? false;
    const exposure = row.exposure ?? (row.symbol.includes("-") ? "multi" : "single");
    return [
      {
        id: row.pool,
        symbol: row.symbol,
        project: row.project,
        chain: row.chain,
        apy,
        apyBase: row.apyBase ?? null,
        apyReward: row.apyReward ?? null,
        tvlUsd: row.tvlUsd,
        stablecoin,
        ilRisk: row.ilRisk ?? (exposure === "multi" && !stablecoin ? "yes" : "no"),
        exposure,
        // DefiLlama lists reward tokens by address; they are passed on as listed.
        rewardTokens: row.rewardTokens ?? [],
      },
    ];
  });
}

/** One in-flight download shared by concurrent callers; a result is reused for `ttlMs`, a failure is not kept. */
function memoize<T>(ttlMs: number, clock: Clock, load: () => Promise<T>): () => Promise<T> {
  let cached: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (cached && clock.now() - cached.at < ttlMs) return cached.value;
    const entry = { at: clock.now(), value: load() };
    cached = entry;
    entry.value.catch(() => {
      if (cached === entry) cached = undefined;
    });
    return entry.value;
  };
}

export interface DefiLlamaOptions {
  http: UpstreamHttp;
  clock: Clock;
  apiUrl?: string;
  yieldsUrl?: string;
}

export function createDefiLlamaTvl({
  http,
  clock,
  apiUrl = DEFILLAMA_API_URL,
  yieldsUrl = DEFILLAMA_YIELDS_URL,
}: DefiLlamaOptions): TvlProvider {
  const protocols = memoize(LIST_TTL_MS, clock, () => http.json({ url: `${apiUrl}/protocols` }, protocolsSchema));
  const pools = memoize(LIST_TTL_MS, clock, async () =>
    mapYieldPools(await http.json({ url: `${yieldsUrl}/pools` }, yieldsSchema)),
  );
  return {
    source: "defillama",
    chains: async () => mapChains(await http.json({ url: `${apiUrl}/v2/chains` }, chainsSchema)),
    protocol: async (slugOrName) => mapProtocol(await protocols(), slugOrName),
    yieldPools: pools,
  };
}
