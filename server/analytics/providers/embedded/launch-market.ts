/**
 * The embedded launchpad market shared by the launch feed and the chain: a pump.fun token every 3
 * minutes and a LaunchLab token every 9 (each at a seeded moment inside its slot), each with a
 * bonding curve that follows its own path in time. Curves use pump.fun's constant product over the
 * virtual reserves (30 SOL / 1.073B tokens; 793.1M tokens for sale; complete at ≈85.005 SOL);
 * LaunchLab pools use the same numbers and complete at 85 SOL raised. After completion the token
 * trades on a pool and its price wanders from the completion price. Long-lived tokens take
 * the place of the launch in their slot and stay on their curve for good, wandering near its end
 * (the contract's example token, ORCAT, is one).
 *
 * Everything is a pure function of the seed and the time asked about, so two readers of one seed
 * see one market, and moving the clock forward reveals new tokens and moves the curves.
 */
import { curvePriceSol, PUMP_COMPLETE_SOL, PUMP_CURVE, virtualTokensAtSol } from "../../markets/pump-curve.js";
import type { LaunchLabPoolAccount, PumpCurveAccount } from "../../markets/records.js";
import { CONTRACT_EXAMPLES } from "./contract-examples.js";
import { base58Chars, indexedAddress, indexFromAddress, keyOf, remember, unit } from "./market-ids.js";
import { type Rng, rng, round, solanaAddress } from "./random.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const VT0 = PUMP_CURVE.initialVirtualTokenReserves;
const VS0 = PUMP_CURVE.initialVirtualSolReserves;
const TOKEN_SUPPLY = PUMP_CURVE.tokenTotalSupply;
const TOKENS_FOR_SALE = PUMP_CURVE.initialRealTokenReserves;

export type Platform = "pump" | "launchlab";

/** SOL in the curve when its last token is sold: pump.fun's real reserves, LaunchLab's raise target. */
export const COMPLETE_SOL: Record<Platform, number> = { pump: PUMP_COMPLETE_SOL, launchlab: 85 };
export const LAUNCH_EVERY: Record<Platform, number> = { pump: 3 * MINUTE, launchlab: 9 * MINUTE };
const SALT: Record<Platform, number> = { pump: 0x1b873593, launchlab: 0x7fe5a2c1 };

/** Population traders 0..SNIPER_TRADERS-1 are the snipers the market's launches attract. */
export const SNIPER_TRADERS = 16;

const SLOT_EPOCH = Date.UTC(2021, 11, 1);

/** Solana slot at a time (400 ms slots). */
export const slotAt = (t: number) => Math.floor((t - SLOT_EPOCH) / 400);

/** Start time of a slot. */
export const slotTime = (slot: number) => SLOT_EPOCH + slot * 400;

/** A sum of sine waves `[amplitude, period, phase]` at time `t`: smooth, seeded price paths. */
export const waveSum = (waves: readonly [number, number, number][], t: number) =>
  waves.reduce((sum, [amp, period, phase]) => sum + amp * Math.sin((2 * Math.PI * t) / period + phase), 0);

const KINDS: Record<Platform, { mint: string; curve: string; suffix: string }> = {
  pump: { mint: "pump-mint", curve: "pump-curve", suffix: "pump" },
  launchlab: { mint: "launchlab-mint", curve: "launchlab-pool", suffix: "bonk" },
};

/** A wallet that bought within the first 3 blocks of a launch. */
export interface Snipe {
  trader: number;
  wallet: string;
  /** Blocks after the creation block. */
  blockOffset: number;
  sol: number;
  tokens: number;
  boughtAt: number;
  soldAt: number;
}

export interface LaunchToken {
  platform: Platform;
  index: number;
  mint: string;
  /** pump.fun bonding curve, or LaunchLab pool state. */
  curve: string;
  dev: string;
  name: string;
  symbol: string;
  uri: string;
  createdAt: number;
  slot: number;
  devSol: number;
  devTokens: number;
  /** The dev sells all but `devKeep` of its first buy at `devSellAt`. */
  devKeep: number;
  devSellAt: number;
  snipes: Snipe[];
  /** SOL in the curve right after the dev's and the snipers' buys. */
  openSol: number;
  /** When the curve completes; null if it never does. */
  completeAt: number | null;
  mintAuthority: string | null;
  freezeAuthority: string | null;
  /** Holders per SOL in the curve. */
  holderDensity: number;
  /** Internal path parameters (see `solInCurve` and `priceSol`); `hover` are SOL waves a long-lived curve wanders by. */
  path: {
    rise: number;
    riseTau: number;
    fall: number;
    fallTau: number;
    drift: number;
    waves: [number, number, number][];
    hover: [number, number, number][];
  };
}

/**
 * A token that lives on its curve for good, in the slot of the launch it replaces: it climbed to
 * `settleSol` in its first days and has wandered within `wanderSol` of it since, never completing.
 */
interface LongLivedLaunch {
  platform: Platform;
  mint: string;
  curve: string;
  dev: string;
  name: string;
  symbol: string;
  createdAt: number;
  /** The dev's first buy, and the share of it the dev keeps after selling the rest. */
  devSol: number;
  devKeep: number;
  /** How many of the market's snipers bought in its first blocks, and the range of their buys in SOL. */
  snipers: number;
  sniperSol: [number, number];
  settleSol: number;
  wanderSol: number;
  holderDensity: number;
}

/**
 * The market's long-lived tokens. ORCAT, the contract's example: a pump.fun token from June that
 * hovers around 93 % of its curve, with a modest dev buy half sold, three light snipers, both
 * authorities revoked and about 800 holders.
 */
const LONG_LIVED: readonly LongLivedLaunch[] = [
  {
    ...CONTRACT_EXAMPLES.launch,
    platform: "pump",
    createdAt: Date.UTC(2026, 5, 18, 14, 7, 31),
    devSol: 1.25,
    devKeep: 0.5,
    snipers: 3,
    sniperSol: [0.3, 0.5],
    settleSol: 67,
    wanderSol: 4,
    holderDensity: 11.8,
  },
];

const ADJECTIVES =
  "Orbit Moon Based Tiny Giga Turbo Sleepy Angry Golden Cosmic Pixel Neon Wild Lucky Baby Super Dark Happy Chad Magic Frosty Retro Mega Royal".split(
    " ",
  );
const NOUNS =
  "Cat Dog Pepe Frog Ape Whale Goose Hamster Duck Penguin Otter Wizard Rocket Banana Bear Bull Llama Cow Fish Toad Doge Panda Koala Sherpa".split(
    " ",
  );

function naming(r: Rng): { name: string; symbol: string } {
  const adjective = r.pick(ADJECTIVES);
  const noun = r.pick(NOUNS);
  const style = r.int(0, 2);
  const symbol = style === 0 ? adjective.slice(0, 2) + noun : style === 1 ? noun : `${adjective.slice(0, 1)}${noun}${r.int(1, 9)}`;
  return { name: `${adjective} ${noun}`, symbol: symbol.toUpperCase().slice(0, 10) };
}

export interface LaunchMarket {
  readonly seed: string;
  /** The token at an index, whether or not it exists yet at a given time. */
  token(platform: Platform, index: number): LaunchToken;
  byMint(mint: string): LaunchToken | undefined;
  byCurve(address: string): LaunchToken | undefined;
  /** Tokens created in [from, to], newest first. */
  createdBetween(platform: Platform, from: number, to: number): LaunchToken[];
  /** The long-lived tokens created by `t`, newest first: launch feeds keep watching them past their usual window. */
  longLived(platform: Platform, t: number): LaunchToken[];
  /** Snipes of one sniper trader among tokens created in [from, to], oldest first. */
  snipesBy(trader: number, from: number, to: number): { token: LaunchToken; snipe: Snipe }[];
  /** The population wallet address of trader `n`. */
  traderAddress(n: number): string;
  solUsd(t: number): number;
}

export function solInCurve(token: LaunchToken, t: number): number {
  if (t < token.createdAt) return 0;
  if (token.completeAt !== null && t >= token.completeAt) return COMPLETE_SOL[token.platform];
  const age = t - token.createdAt;
  const { rise, riseTau, fall, fallTau, hover } = token.path;
  const risen = 1 - Math.exp(-age / riseTau);
  return Math.max(0, token.openSol + (rise + waveSum(hover, age)) * risen - fall * (1 - Math.exp(-age / fallTau)));
}

/** SOL per token: the curve price, then after completion a pool price wandering from the completion price. */
export function priceSol(token: LaunchToken, t: number): number {
  const completeAt = token.completeAt;
  if (completeAt === null || t < completeAt) return curvePriceSol(solInCurve(token, t));
  const since = t - completeAt;
  const wave = waveSum(token.path.waves, since) - waveSum(token.path.waves, 0);
  return curvePriceSol(COMPLETE_SOL[token.platform]) * Math.exp(token.path.drift * (since / DAY) + wave);
}

/** The pump.fun bonding-curve account of a token as it reads at `t`. */
export function pumpCurveAccount(token: LaunchToken, t: number): PumpCurveAccount {
  const sol = solInCurve(token, t);
  const tokens = virtualTokensAtSol(sol);
  return {
    kind: "pump",
    address: token.curve,
    virtualTokenReserves: round(tokens, 6),
    virtualSolReserves: round(VS0 + sol, 9),
    realTokenReserves: round(Math.max(0, tokens - (VT0 - TOKENS_FOR_SALE)), 6),
    realSolReserves: round(sol, 9),
    tokenTotalSupply: TOKEN_SUPPLY,
    complete: token.completeAt !== null && t >= token.completeAt,
    creator: token.dev,
  };
}

/** The LaunchLab pool account of a token as it reads at `t`. */
export function launchLabPoolAccount(token: LaunchToken, t: number): LaunchLabPoolAccount {
  const sol = solInCurve(token, t);
  return {
    kind: "launchlab",
    address: token.curve,
    mint: token.mint,
    creator: token.dev,
    status: token.completeAt !== null && t >= token.completeAt ? "migrated" : "trading",
    supply: TOKEN_SUPPLY,
    totalSellA: TOKENS_FOR_SALE,
    virtualA: VT0,
    virtualB: VS0,
    realA: round(Math.min(TOKENS_FOR_SALE, VT0 - virtualTokensAtSol(sol)), 6),
    realB: round(sol, 9),
    totalFundRaisingB: COMPLETE_SOL.launchlab,
  };
}

/**
 * The addresses of a token other than its mint, derived when first read (most tokens are only ever
 * traded) unless the token has fixed ones.
 */
function lazyAddresses(
  seed: string,
  platform: Platform,
  index: number,
  mintLive: boolean,
  freezeLive: boolean,
  fixed?: { dev: string; curve: string },
) {
  let dev = fixed?.dev;
  let curve = fixed?.curve;
  return {
    get curve() {
      curve ??= indexedAddress(seed, KINDS[platform].curve, index, "");
      return curve;
    },
    get dev() {
      dev ??= indexedAddress(seed, `${platform}-dev`, index, "");
      return dev;
    },
    get uri() {
      return `https://ipfs.io/ipfs/Qm${base58Chars(`${seed}:uri:${platform}:${index}`, 44)}`;
    },
    get mintAuthority() {
      return mintLive ? this.dev : null;
    },
    get freezeAuthority() {
      return freezeLive ? this.dev : null;
    },
  };
}

/**
 * A curve's path from the SOL in it after the opening buys. Most launches are duds that rise a
 * little and then dump below their opening (the snipers and the dev sell); some climb and fade;
 * a few stall near the end of the curve; about 6% graduate, `completeAfter` ms after launch.
 */
function curvePath(r: Rng, open: number, complete: number): { path: LaunchToken["path"]; completeAfter: number | null } {
  const kind = r.next();
  const graduates = kind >= 0.94;
  let rise: number;
  let riseTau: number;
  let fall = 0;
  let fallTau = HOUR;
  if (kind < 0.55) {
    rise = r.range(1, 15);
    riseTau = r.range(5, 90) * MINUTE;
    fall = rise * r.range(0.7, 1) + open * r.range(0.3, 1);
    fallTau = riseTau * r.range(0.2, 2);
  } else if (kind < 0.925) {
    rise = r.range(15, 45);
    riseTau = r.range(0.5, 12) * HOUR;
    fall = rise * r.range(0, 0.6) + open * r.range(0, 0.3);
    fallTau = riseTau * r.range(1, 8);
  } else if (!graduates) {
    rise = Math.max(1, r.range(52, 84) - open);
    riseTau = r.range(1, 24) * HOUR;
  } else {
    rise = (complete - open) * r.range(1.3, 3);
    riseTau = r.range(0.25, 24) * HOUR;
  }
  if (!graduates) rise = Math.min(rise, (complete - open) * 0.98);
  const waves: [number, number, number][] = [
    [r.range(0.1, 0.4), r.range(6, 72) * HOUR, r.range(0, 2 * Math.PI)],
    [r.range(0.04, 0.15), r.range(0.7, 4) * HOUR, r.range(0, 2 * Math.PI)],
  ];
  return {
    path: { rise, riseTau, fall, fallTau, drift: r.range(-0.4, 0.15), waves, hover: [] },
    completeAfter: graduates ? Math.round(-riseTau * Math.log(1 - (complete - open) / rise)) : null,
  };
}

/** A long-lived curve's path: it climbs from the opening buys to `settleSol` over a few days, then wanders within `wanderSol` of it. */
function settlingPath(r: Rng, open: number, long: LongLivedLaunch): LaunchToken["path"] {
  const w = long.wanderSol;
  return {
    rise: long.settleSol - open,
    riseTau: r.range(1, 3) * DAY,
    fall: 0,
    fallTau: HOUR,
    drift: 0,
    waves: [],
    hover: [
      [0.55 * w, r.range(4, 7) * DAY, r.range(0, 2 * Math.PI)],
      [0.3 * w, r.range(14, 30) * HOUR, r.range(0, 2 * Math.PI)],
      [0.15 * w, r.range(1.5, 4) * HOUR, r.range(0, 2 * Math.PI)],
    ],
  };
}

export function createLaunchMarket(seed: string): LaunchMarket {
  const tokens = new Map<string, LaunchToken>();
  const traders = new Map<number, string>();
  const timingKey = { pump: keyOf(seed, "timing:pump"), launchlab: keyOf(seed, "timing:launchlab") };
  const hypeKey = keyOf(seed, "hype");
  const snipers = Array.from({ length: SNIPER_TRADERS }, (_, n) => {
    const r = rng(`${seed}:sniper:${n}`);
    return { key: keyOf(seed, `sniper-key:${n}`), rate: r.range(0.006, 0.02), skill: r.range(0.05, 0.8) };
  });
  const solPhase = rng(`${seed}:sol-usd`);
  const solWaves: [number, number, number][] = [
    [0.07, 9 * DAY, solPhase.range(0, 2 * Math.PI)],
    [0.03, 31 * HOUR, solPhase.range(0, 2 * Math.PI)],
    [0.01, 4.7 * HOUR, solPhase.range(0, 2 * Math.PI)],
  ];

  /** Long-lived tokens by the slot they take, with the snipers (drawn from the seed) that bought them. */
  const pinned = new Map(
    LONG_LIVED.map((launch) => {
      const index = Math.floor(launch.createdAt / LAUNCH_EVERY[launch.platform]);
      const draw = rng(`${seed}:long-lived:${launch.mint}`);
      const pool = Array.from({ length: SNIPER_TRADERS }, (_, n) => n);
      const chosen = Array.from({ length: launch.snipers }, () => pool.splice(draw.int(0, pool.length - 1), 1)[0] as number);
      return [`${launch.platform}:${index}`, { launch, index, snipers: new Set(chosen) }];
    }),
  );
  const pinnedAt = (platform: Platform, index: number) => pinned.get(`${platform}:${index}`);

  const createdAt = (platform: Platform, index: number) =>
    pinnedAt(platform, index)?.launch.createdAt ??
    index * LAUNCH_EVERY[platform] + Math.floor(unit(timingKey[platform], index) * LAUNCH_EVERY[platform]);
  const hype = (platform: Platform, index: number) => {
    const u = unit(hypeKey ^ SALT[platform], index);
    return u < 0.6 ? 0.4 : u < 0.9 ? 1.5 : 5;
  };
  const snipedBy = (n: number, platform: Platform, index: number) => {
    const long = pinnedAt(platform, index);
    if (long) return long.snipers.has(n);
    const sniper = snipers[n];
    return sniper !== undefined && unit(sniper.key ^ SALT[platform], index) < sniper.rate * hype(platform, index);
  };

  const traderAddress = (n: number) => remember(traders, n, () => solanaAddress(seed, `trader:${n}`));

  function build(platform: Platform, index: number): LaunchToken {
    const r = rng(`${seed}:${platform}:${index}`);
    const at = createdAt(platform, index);
    const long = pinnedAt(platform, index)?.launch;
    const devSol = long ? long.devSol : r.chance(0.12) ? r.range(3, 10) : r.chance(0.15) ? 0 : r.range(0.2, 2.5);
    let sol = devSol;
    const devTokens = VT0 - virtualTokensAtSol(sol);
    const bigBuys = hype(platform, index) >= 5 ? 2 : 1;
    const buys = snipers
      .map((_, n) => n)
      .filter((n) => snipedBy(n, platform, index))
      .map((n) => ({ n, blockOffset: r.int(0, 2), sol: long ? r.range(...long.sniperSol) : r.range(0.3, 2.5) * bigBuys }))
      .sort((a, b) => a.blockOffset - b.blockOffset || a.n - b.n);
    const bought = buys.map((b) => {
      const before = virtualTokensAtSol(sol);
      sol += b.sol;
      return { ...b, tokens: before - virtualTokensAtSol(sol) };
    });

    const { path, completeAfter } = long
      ? { path: settlingPath(r, sol, long), completeAfter: null }
      : curvePath(r, sol, COMPLETE_SOL[platform]);
    const completeAt = completeAfter === null ? null : at + completeAfter;

    const { name, symbol } = long ?? naming(r);
    const kinds = KINDS[platform];
    const devKeep = long ? long.devKeep : r.chance(0.35) ? 0 : r.chance(0.7) ? 1 : r.range(0.2, 0.8);
    // A long-lived token has both authorities revoked.
    const [mintLive, freezeLive] = long ? [false, false] : [r.chance(0.03), r.chance(0.04)];
    const token: LaunchToken = Object.assign(lazyAddresses(seed, platform, index, mintLive, freezeLive, long), {
      platform,
      index,
      mint: long?.mint ?? indexedAddress(seed, kinds.mint, index, kinds.suffix),
      name,
      symbol,
      createdAt: at,
      slot: slotAt(at),
      devSol,
      devTokens,
      devKeep,
      devSellAt: at + Math.round(r.range(3, 40) * MINUTE),
      snipes: [],
      openSol: sol,
      completeAt,
      holderDensity: long ? long.holderDensity : r.range(3, 14),
      path,
    });
    token.snipes = bought.map((b) => {
      const boughtAt = at + b.blockOffset * 400;
      const skill = snipers[b.n]?.skill ?? 0.5;
      const holds = [r.range(0.5, 90), r.range(0.5, 90), r.range(0.5, 90)].map((m) => m * MINUTE);
      const bestHold = holds.reduce((best, h) => (priceSol(token, boughtAt + h) > priceSol(token, boughtAt + best) ? h : best));
      const hold = r.chance(0.12) ? r.range(2, 20) * DAY : r.chance(skill) ? bestHold : (holds[0] as number);
      return {
        trader: b.n,
        wallet: traderAddress(b.n),
        blockOffset: b.blockOffset,
        sol: b.sol,
        tokens: b.tokens,
        boughtAt,
        soldAt: boughtAt + Math.round(hold),
      };
    });
    return token;
  }

  const token = (platform: Platform, index: number) => remember(tokens, `${platform}:${index}`, () => build(platform, index));

  /** The token whose mint or curve an address is: a long-lived token's fixed address, or an address carrying its index. */
  function find(address: string, field: "mint" | "curve"): LaunchToken | undefined {
    for (const { launch, index } of pinned.values()) if (launch[field] === address) return token(launch.platform, index);
    for (const platform of ["pump", "launchlab"] as const) {
      const kind = KINDS[platform];
      const index = indexFromAddress(seed, kind[field], address, field === "mint" ? kind.suffix : "");
      // A long-lived token's slot no longer answers to the addresses derived for it.
      const found = index === undefined ? undefined : token(platform, index);
      if (found?.[field] === address) return found;
    }
    return undefined;
  }

  /** Indexes of the tokens created in [from, to], oldest first. */
  function indexesBetween(platform: Platform, from: number, to: number): number[] {
    const out: number[] = [];
    for (let i = Math.floor(from / LAUNCH_EVERY[platform]); i <= Math.floor(to / LAUNCH_EVERY[platform]); i++) {
      const at = createdAt(platform, i);
      if (at >= from && at <= to) out.push(i);
    }
    return out;
  }

  return {
    seed,
    token,
    traderAddress,
    byMint: (mint) => find(mint, "mint"),
    byCurve: (address) => find(address, "curve"),
    createdBetween: (platform, from, to) =>
      indexesBetween(platform, from, to)
        .reverse()
        .map((i) => token(platform, i)),
    longLived: (platform, t) =>
      [...pinned.values()]
        .filter(({ launch }) => launch.platform === platform && launch.createdAt <= t)
        .sort((a, b) => b.launch.createdAt - a.launch.createdAt)
        .map(({ index }) => token(platform, index)),
    snipesBy(trader, from, to) {
      const out: { token: LaunchToken; snipe: Snipe }[] = [];
      for (const platform of ["pump", "launchlab"] as const) {
        for (const i of indexesBetween(platform, from, to)) {
          if (!snipedBy(trader, platform, i)) continue;
          const t = token(platform, i);
          const snipe = t.snipes.find((s) => s.trader === trader);
          if (snipe) out.push({ token: t, snipe });
        }
      }
      return out.sort((a, b) => a.snipe.boughtAt - b.snipe.boughtAt);
    },
    solUsd: (t) => 172 * Math.exp(waveSum(solWaves, t)),
  };
}
