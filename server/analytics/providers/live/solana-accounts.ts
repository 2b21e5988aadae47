/**
 * Pure Solana account work for the live chain and launch adapters: program-derived addresses
 * (synchronous, so that `curveAddresses` needs no call), Anchor discriminators, and the decoders of
 * the pump.fun `BondingCurve` (docs/upstreams.md §3.2), the Raydium LaunchLab `LaunchpadPool`
 * (§3.3) and the Metaplex metadata account (§4). Decoders check the discriminator and the length,
 * and return undefined for any other account.
 */
import { createHash } from "node:crypto";
import { getAddressEncoder } from "@solana/addresses";
import { getBase58Decoder } from "@solana/codecs-strings";
import type { LaunchLabPoolAccount, PumpCurveAccount } from "../../markets/records.js";
import { type TokenMetadata, WSOL_MINT } from "../chain-rpc.js";

export const PUMP_PROGRAM = "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P";
export const LAUNCHLAB_PROGRAM = "LanMV9sAd7wArD4vJFi2qDdfnVhFxYSUg6eADduJ3uj";
export const METADATA_PROGRAM = "metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s";
export const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
export const TOKEN_2022_PROGRAM = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";
export const SYSTEM_PROGRAM = "11111111111111111111111111111111";
export const USDC_MINT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";

const addressBytes = getAddressEncoder();
const base58 = getBase58Decoder();
export const toAddress = (bytes: Uint8Array) => base58.decode(bytes);

/** Anchor's account discriminator: the first 8 bytes of `sha256("account:<Name>")`. */
export function discriminator(account: string): Uint8Array {
  return new Uint8Array(createHash("sha256").update(`account:${account}`).digest().subarray(0, 8));
}

const P = 2n ** 255n - 19n;
const modP = (n: bigint) => ((n % P) + P) % P;
function powMod(base: bigint, exp: bigint): bigint {
  let result = 1n;
  let b = modP(base);
  for (let e = exp; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % P;
    b = (b * b) % P;
  }
  return result;
}
const D = modP(-121665n * powMod(121666n, P - 2n));

/** Whether 32 bytes decompress to an ed25519 point: wallets are on the curve, program-derived addresses are not. */
export function isOnCurve(bytes: Uint8Array): boolean {
  let y = 0n;
  for (let i = 31; i >= 0; i--) y = (y << 8n) | BigInt(i === 31 ? (bytes[i] as number) & 0x7f : (bytes[i] as number));
  const y2 = modP(y * y);
  // x² = (y² − 1) / (d·y² + 1) must be a square.
  const x2 = modP((y2 - 1n) * powMod(D * y2 + 1n, P - 2n));
  return x2 === 0n || powMod(x2, (P - 1n) / 2n) === 1n;
}

const key = (address: string) => new Uint8Array(addressBytes.encode(address as never));

export const isOnCurveAddress = (address: string) => isOnCurve(key(address));

type Seed = string | Uint8Array;

/** `findProgramAddress`: the first bump from 255 down whose hash is off the curve. */
export function programAddress(seeds: readonly Seed[], program: string): string {
  const parts = seeds.map((s) => (typeof s === "string" ? Buffer.from(s, "utf8") : s));
  const programBytes = key(program);
  for (let bump = 255; bump >= 0; bump--) {
    const hash = createHash("sha256");
    for (const part of parts) hash.update(part);
    hash.update(Uint8Array.of(bump)).update(programBytes).update("ProgramDerivedAddress");
    const candidate = new Uint8Array(hash.digest());
    if (!isOnCurve(candidate)) return toAddress(candidate);
  }
  throw new Error("no program address for these seeds");
}

/** pump.fun `["bonding-curve", mint]`; LaunchLab `["pool", mint, WSOL]` (SOL-quoted pools). */
export function curveAddresses(mint: string): { pump: string; launchLab: string } {
  return {
    pump: programAddress(["bonding-curve", key(mint)], PUMP_PROGRAM),
    launchLab: programAddress(["pool", key(mint), key(WSOL_MINT)], LAUNCHLAB_PROGRAM),
  };
}

export const metadataAddress = (mint: string) =>
  programAddress(["metadata", key(METADATA_PROGRAM), key(mint)], METADATA_PROGRAM);

/** The LaunchLab authority that owns every pool's vaults. */
export const launchLabVaultAuthority = () => programAddress(["vault_auth_seed"], LAUNCHLAB_PROGRAM);

const BONDING_CURVE = discriminator("BondingCurve");
const POOL_STATE = discriminator("PoolState");

const startsWith = (data: Uint8Array, prefix: Uint8Array) =>
  data.length >= prefix.length && prefix.every((b, i) => data[i] === b);

/** pump.fun tokens have 6 decimals; the quote is SOL, or USDC for `quote_mint` = USDC (2026 curves). */
const PUMP_TOKEN_DECIMALS = 6;
const QUOTE_DECIMALS: Record<string, number> = { [SYSTEM_PROGRAM]: 9, [USDC_MINT]: 6 };

/**
 * A `BondingCurve`: discriminator, five u64 reserves, `complete`, then `creator` and (2026) the
 * quote mint. Older accounts end before `creator`; their missing bytes read as zero (the default key).
 */
export function decodePumpCurve(address: string, raw: Uint8Array): PumpCurveAccount | undefined {
  if (!startsWith(raw, BONDING_CURVE) || raw.length < 49) return undefined;
  const data = new Uint8Array(Math.max(raw.length, 115));
  data.set(raw);
  const view = new DataView(data.buffer);
  const u64 = (offset: number) => view.getBigUint64(offset, true);
  const quoteDecimals = QUOTE_DECIMALS[toAddress(data.subarray(83, 115))];
  if (quoteDecimals === undefined) return undefined;
  const tokens = (offset: number) => Number(u64(offset)) / 10 ** PUMP_TOKEN_DECIMALS;
  const quote = (offset: number) => Number(u64(offset)) / 10 ** quoteDecimals;
  return {
    kind: "pump",
    address,
    virtualTokenReserves: tokens(8),
    virtualSolReserves: quote(16),
    realTokenReserves: tokens(24),
    realSolReserves: quote(32),
    tokenTotalSupply: tokens(40),
    complete: data[48] === 1,
    creator: toAddress(data.subarray(49, 81)),
  };
}

/** `LaunchpadPool`: offsets of raydium-sdk-V2's layout (u64 discriminator, epoch, five u8, u64 amounts, vesting, keys). */
export function decodeLaunchLabPool(address: string, data: Uint8Array): LaunchLabPoolAccount | undefined {
  if (!startsWith(data, POOL_STATE) || data.length < 365) return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const decimalsA = data[18] as number;
  const decimalsB = data[19] as number;
  const a = (offset: number) => Number(view.getBigUint64(offset, true)) / 10 ** decimalsA;
  const b = (offset: number) => Number(view.getBigUint64(offset, true)) / 10 ** decimalsB;
  return {
    kind: "launchlab",
    address,
    mint: toAddress(data.subarray(205, 237)),
    creator: toAddress(data.subarray(333, 365)),
    // 0 is the fund-raising (trading) state; every later state means the curve is done.
    status: data[17] === 0 ? "trading" : "migrated",
    supply: a(21),
    totalSellA: a(29),
    virtualA: a(37),
    virtualB: b(45),
    realA: a(53),
    realB: b(61),
    totalFundRaisingB: b(69),
  };
}

/** Metaplex `Metadata`: key, update authority, mint, then Borsh strings padded with NULs. */
export function decodeMetadata(mint: string, data: Uint8Array): TokenMetadata | undefined {
  if (data[0] !== 4 || data.length < 69) return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let offset = 65;
  const text = () => {
    if (offset + 4 > data.length) return undefined;
    const length = view.getUint32(offset, true);
    const value = Buffer.from(data.subarray(offset + 4, offset + 4 + length)).toString("utf8");
    offset += 4 + length;
    return value.replace(/\0+$/, "").trim();
  };
  const [name, symbol, uri] = [text(), text(), text()];
  return name === undefined || symbol === undefined || uri === undefined ? undefined : { mint, name, symbol, uri };
}
