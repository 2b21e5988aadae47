/**
 * Live pool venue: Meteora DLMM (docs/upstreams.md §2). Pools, daily volumes and LP positions come from
 * the data API (`dlmm.datapi.meteora.ag`); when it fails, pool lists and single pools fall back to
 * the legacy host (`dlmm-api.meteora.ag`), whose pairs carry raw reserves without decimals, so the
 * mints' decimals are read over Solana RPC. The RPC also counts a pool's open position accounts,
 * a figure neither API serves. Positions: `GET /portfolio/open` names the pools a wallet is in,
 * `GET /positions/{pool}/pnl` their open positions; a position address is resolved to its pool and
 * owner through the legacy `GET /position_v2/{address}`.
 */
import { getBase58Decoder } from "@solana/codecs-strings";
import { z } from "zod";
import { ApiError, upstreamError } from "../../../http/errors.js";
import type { Clock } from "../../clock.js";
import { binIdAt } from "../../markets/dlmm.js";
import type { PoolProvider, PoolRecord, PoolSortKey, PoolTokenRecord, PositionRecord, VolumeBucket } from "../pools.js";
import { numeric, type UpstreamHttp, urlOf } from "./http.js";
import type { JsonRpc } from "./json-rpc.js";
import { readMints } from "./solana-reads.js";

export const METEORA_DATAPI_URL = "https://dlmm.datapi.meteora.ag";
export const METEORA_LEGACY_URL = "https://dlmm-api.meteora.ag";

/** The DLMM program and its `PositionV2` account discriminator (MeteoraAg/dlmm-sdk `idls/dlmm.json`); `lb_pair` follows it. */
const DLMM_PROGRAM = "LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo";
const POSITION_V2 = getBase58Decoder().decode(new Uint8Array([117, 176, 212, 199, 245, 180, 133, 182]));

const DAY_S = 86_400;
/** The portfolio endpoint's largest page: the pools a wallet has open positions in. */
const PORTFOLIO_PAGE = 50;

const DATAPI_SORT: Record<PoolSortKey, string> = { apr: "apr_24h:desc", volume: "volume_24h:desc", tvl: "tvl:desc" };
const LEGACY_SORT: Record<PoolSortKey, string> = { apr: "feetvlratio", volume: "volume", tvl: "tvl" };

/** Unix seconds from seconds, milliseconds or an ISO date. */
const unixSeconds = z.union([numeric, z.string()]).transform((value, ctx) => {
  const n = typeof value === "number" ? value : Date.parse(value) / 1000;
  if (!Number.isFinite(n)) {
    ctx.addIssue({ code: "custom", message: "not a time" });
    return z.NEVER;
  }
  return Math.floor(n > 1e12 ? n / 1000 : n);
});

/** Windowed figures: the doc spells the day `24h`, older answers `hour_24`. */
const windows = z.record(z.string(), numeric.nullable());
const day = (w: z.infer<typeof windows>) => w["24h"] ?? w.hour_24 ?? 0;

const datapiToken = z.object({
  address: z.string(),
  symbol: z.string(),
  decimals: z.number().int().nonnegative(),
  price: numeric.nullish(),
});

export const datapiPoolSchema = z.object({
  address: z.string(),
  name: z.string(),
  created_at: unixSeconds,
  current_price: numeric,
  pool_config: z.object({ bin_step: z.number().int().positive(), base_fee_pct: numeric }),
  token_x: datapiToken,
  token_y: datapiToken,
  token_x_amount: numeric,
  token_y_amount: numeric,
  tvl: numeric,
  volume: windows,
  fees: windows,
});
export const datapiPageSchema = z.object({ total: z.number().int().nonnegative(), data: z.array(datapiPoolSchema) });

export const volumeHistorySchema = z.object({
  data: z.array(z.object({ timestamp: unixSeconds, volume: numeric, fees: numeric })),
});

export const legacyPairSchema = z.object({
  address: z.string(),
  name: z.string(),
  mint_x: z.string(),
  mint_y: z.string(),
  bin_step: z.number().int().positive(),
  base_fee_percentage: numeric,
  liquidity: numeric,
  reserve_x_amount: numeric,
  reserve_y_amount: numeric,
  current_price: numeric,
  trade_volume_24h: numeric,
  fees_24h: numeric,
});
export const legacyPageSchema = z.object({ pairs: z.array(legacyPairSchema), total: z.number().int().nonnegative() });

export const portfolioSchema = z.object({ pools: z.array(z.object({ poolAddress: z.string() })) });

const tokenAmount = z.object({ amount: numeric });
export const positionsPnlSchema = z.object({
  positions: z.array(
    z.object({
      positionAddress: z.string(),
      lowerBinId: z.number().int(),
      upperBinId: z.number().int(),
      isClosed: z.boolean().nullish(),
      createdAt: unixSeconds.nullish(),
      unrealizedPnl: z.object({
        balanceTokenX: tokenAmount,
        balanceTokenY: tokenAmount,
        unclaimedFeeTokenX: tokenAmount.nullish(),
        unclaimedFeeTokenY: tokenAmount.nullish(),
      }),
    }),
  ),
});

export const legacyPositionSchema = z.object({
  address: z.string(),
  owner: z.string(),
  pair_address: z.string(),
  created_at: unixSeconds,
});

/** USD prices of both sides; a missing one follows from the other through the pool price (X in Y). */
function pricesOf(
  x: number | null | undefined,
  y: number | null | undefined,
  price: number,
): [number, number] | undefined {
  if (y != null) return [x ?? price * y, y];
  if (x != null && price > 0) return [x, x / price];
  return undefined;
}

/** The APIs serve the price, not the active bin: it is the bin whose price is nearest. `openPositions` is counted by `pool()`. */
function record(base: Omit<PoolRecord, "activeBinId" | "openPositions">): PoolRecord {
  return { ...base, activeBinId: binIdAt(base, base.currentPrice), openPositions: 0 };
}

/** A datapi pool; undefined when neither token has a USD price. */
export function mapDatapiPool(pool: z.infer<typeof datapiPoolSchema>): PoolRecord | undefined {
  const prices = pricesOf(pool.token_x.price, pool.token_y.price, pool.current_price);
  if (!prices) return undefined;
  const token = (t: z.infer<typeof datapiToken>, priceUsd: number): PoolTokenRecord => ({
    mint: t.address,
    symbol: t.symbol,
    decimals: t.decimals,
    priceUsd,
  });
  return record({
    address: pool.address,
    name: pool.name,
    tokenX: token(pool.token_x, prices[0]),
    tokenY: token(pool.token_y, prices[1]),
    binStep: pool.pool_config.bin_step,
    baseFeePct: pool.pool_config.base_fee_pct,
    currentPrice: pool.current_price,
    reserveX: pool.token_x_amount,
    reserveY: pool.token_y_amount,
    tvlUsd: pool.tvl,
    volume24hUsd: day(pool.volume),
    fees24hUsd: day(pool.fees),
    createdAt: pool.created_at,
  });
}

/**
 * A legacy pair, given its mints' decimals. Reserves are raw there; USD prices follow from the TVL
 * (`liquidity`, USD) and the pool price: TVL = Y price × (X reserve × price + Y reserve). Symbols
 * come from the pair name; the pair has no creation time (0).
 */
export function mapLegacyPair(pair: z.infer<typeof legacyPairSchema>, decimals: { x: number; y: number }): PoolRecord {
  const reserveX = pair.reserve_x_amount / 10 ** decimals.x;
  const reserveY = pair.reserve_y_amount / 10 ** decimals.y;
  const depth = reserveX * pair.current_price + reserveY;
  const priceY = depth > 0 ? pair.liquidity / depth : 0;
  const [symbolX = pair.mint_x, symbolY = pair.mint_y] = pair.name.split("-");
  return record({
    address: pair.address,
    name: pair.name,
    tokenX: { mint: pair.mint_x, symbol: symbolX, decimals: decimals.x, priceUsd: pair.current_price * priceY },
    tokenY: { mint: pair.mint_y, symbol: symbolY, decimals: decimals.y, priceUsd: priceY },
    binStep: pair.bin_step,
    baseFeePct: pair.base_fee_percentage,
    currentPrice: pair.current_price,
    reserveX,
    reserveY,
    tvlUsd: pair.liquidity,
    volume24hUsd: pair.trade_volume_24h,
    fees24hUsd: pair.fees_24h,
    createdAt: 0,
  });
}

/**
 * The last `days` UTC-day buckets ending with today's, oldest first; days the API has no bucket for
 * (before the pool existed, or without trades) are zero. Today's bucket runs from midnight to now.
 */
export function mapVolumeHistory(
  body: z.infer<typeof volumeHistorySchema>,
  days: number,
  nowS: number,
): VolumeBucket[] {
  const today = Math.floor(nowS / DAY_S);
  const byDay = new Map(body.data.map((b) => [Math.floor(b.timestamp / DAY_S), b]));
  return Array.from({ length: days }, (_, i) => {
    const d = today - days + 1 + i;
    const bucket = byDay.get(d);
    return { timestamp: d * DAY_S, volumeUsd: bucket?.volume ?? 0, feesUsd: bucket?.fees ?? 0 };
  });
}

/** The open positions of one pool and owner; `createdAt` is undefined where the datapi omits it (the legacy position has it). */
export function mapPositions(
  body: z.infer<typeof positionsPnlSchema>,
  pool: string,
  owner: string,
): (Omit<PositionRecord, "createdAt"> & { createdAt: number | undefined })[] {
  return body.positions
    .filter((p) => !p.isClosed)
    .map((p) => ({
      address: p.positionAddress,
      pool,
      owner,
      lowerBinId: p.lowerBinId,
      upperBinId: p.upperBinId,
      amountX: p.unrealizedPnl.balanceTokenX.amount,
      amountY: p.unrealizedPnl.balanceTokenY.amount,
      unclaimedFeeX: p.unrealizedPnl.unclaimedFeeTokenX?.amount ?? 0,
      unclaimedFeeY: p.unrealizedPnl.unclaimedFeeTokenY?.amount ?? 0,
      createdAt: p.createdAt ?? undefined,
    }));
}

export interface MeteoraOptions {
  http: UpstreamHttp;
  /** Solana RPC: open position counts, and mint decimals for the legacy fallback. */
  rpc: JsonRpc;
  clock: Clock;
  datapiUrl?: string;
  /** Fallback for pools; the only source of a position's pool and owner. */
  legacyUrl?: string;
}

export function createMeteoraPools({
  datapiUrl = METEORA_DATAPI_URL,
  legacyUrl = METEORA_LEGACY_URL,
  ...rest
}: MeteoraOptions): PoolProvider {
  const meteora: Meteora = { ...rest, datapiUrl, legacyUrl };
  return { source: "meteora", ...poolReads(meteora), ...positionReads(meteora) };
}

/** The options with their default hosts. */
type Meteora = Required<MeteoraOptions>;

/** The datapi answer, or the legacy host's when the datapi fails. */
async function withFallback<T>(primary: () => Promise<T>, fallback: () => Promise<T>): Promise<T> {
  try {
    return await primary();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return fallback();
  }
}

async function countPositions({ rpc }: Meteora, pool: string): Promise<number> {
  const filters = [{ memcmp: { offset: 0, bytes: POSITION_V2 } }, { memcmp: { offset: 8, bytes: pool } }];
  const accounts = await rpc.call(
    "getProgramAccounts",
    [DLMM_PROGRAM, { encoding: "base64", dataSlice: { offset: 0, length: 0 }, filters }],
    z.array(z.object({ pubkey: z.string() })),
  );
  return accounts.length;
}

/** Legacy pairs whose mints the RPC knows. */
async function legacyRecords({ rpc }: Meteora, pairs: z.infer<typeof legacyPairSchema>[]): Promise<PoolRecord[]> {
  const mints = await readMints(
    rpc,
    pairs.flatMap((p) => [p.mint_x, p.mint_y]),
  );
  return pairs.flatMap((pair) => {
    const x = mints.get(pair.mint_x)?.decimals;
    const y = mints.get(pair.mint_y)?.decimals;
    return x === undefined || y === undefined ? [] : [mapLegacyPair(pair, { x, y })];
  });
}

/** Pool lists, single pools (both falling back to the legacy host) and daily volumes. */
function poolReads(meteora: Meteora): Pick<PoolProvider, "listPools" | "pool" | "volumeHistory"> {
  const { http, clock, datapiUrl, legacyUrl } = meteora;
  return {
    listPools: ({ query, sortBy, pageSize }) =>
      withFallback(
        async () => {
          const url = urlOf(datapiUrl, "/pools", { page: 1, page_size: pageSize, sort_by: DATAPI_SORT[sortBy], query });
          const body = await http.json({ url }, datapiPageSchema);
          return { total: body.total, pools: body.data.flatMap((p) => mapDatapiPool(p) ?? []) };
        },
        async () => {
          const params = {
            page: 0,
            limit: pageSize,
            sort_key: LEGACY_SORT[sortBy],
            order_by: "desc",
            search_term: query,
          };
          const body = await http.json(
            { url: urlOf(legacyUrl, "/pair/all_with_pagination", params) },
            legacyPageSchema,
          );
          return { total: body.total, pools: await legacyRecords(meteora, body.pairs) };
        },
      ),
    async pool(address) {
      // Positions are counted (a scan of the program's accounts on the RPC) only once the pool is known to exist: an
      // address nobody indexes is a free 404, which must not cost that scan. A found pool's answer takes both in turn.
      const found = await withFallback(
        async () => {
          // The datapi answers 400 for an address it does not index.
          const body = await http.jsonOrMissing({ url: `${datapiUrl}/pools/${address}` }, datapiPoolSchema, [400, 404]);
          if (!body) return undefined;
          const mapped = mapDatapiPool(body);
          if (!mapped)
            throw upstreamError(http.source, `${http.source} has no USD price for either token of ${address}.`);
          return mapped;
        },
        async () => {
          const pair = await http.jsonOrMissing({ url: `${legacyUrl}/pair/${address}` }, legacyPairSchema, [400, 404]);
          return pair && (await legacyRecords(meteora, [pair]))[0];
        },
      );
      return found && { ...found, openPositions: await countPositions(meteora, address) };
    },
    async volumeHistory(address, days) {
      const nowS = Math.floor(clock.now() / 1000);
      const start = (Math.floor(nowS / DAY_S) - days + 1) * DAY_S;
      const url = urlOf(datapiUrl, `/pools/${address}/volume/history`, {
        timeframe: "24h",
        start_time: start,
        end_time: nowS,
      });
      const body = await http.jsonOrMissing({ url }, volumeHistorySchema, [400, 404]);
      return body ? mapVolumeHistory(body, days, nowS) : [];
    },
  };
}

/** A wallet's open positions and single positions: the datapi's, dated by the legacy position where it omits it. */
function positionReads({ http, datapiUrl, legacyUrl }: Meteora): Pick<PoolProvider, "positionsByOwner" | "position"> {
  const legacyPosition = (address: string) =>
    http.jsonOrMissing({ url: `${legacyUrl}/position_v2/${address}` }, legacyPositionSchema);

  async function openPositions(pool: string, owner: string) {
    const body = await http.json(
      { url: urlOf(datapiUrl, `/positions/${pool}/pnl`, { user: owner, status: "open" }) },
      positionsPnlSchema,
    );
    return mapPositions(body, pool, owner);
  }

  return {
    async positionsByOwner(wallet) {
      const url = urlOf(datapiUrl, "/portfolio/open", { user: wallet, page_size: PORTFOLIO_PAGE });
      const portfolio = await http.json({ url }, portfolioSchema);
      const perPool = await Promise.all(portfolio.pools.map((p) => openPositions(p.poolAddress, wallet)));
      return Promise.all(
        perPool.flat().map(async (p) => {
          if (p.createdAt !== undefined) return { ...p, createdAt: p.createdAt };
          const known = await legacyPosition(p.address);
          if (!known)
            throw upstreamError(http.source, `${http.source} has no creation time for position ${p.address}.`);
          return { ...p, createdAt: known.created_at };
        }),
      );
    },
    async position(address) {
      const known = await legacyPosition(address);
      if (!known) return undefined;
      const found = (await openPositions(known.pair_address, known.owner)).find((p) => p.address === address);
      return found && { ...found, createdAt: found.createdAt ?? known.created_at };
    },
  };
}
