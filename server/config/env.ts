/**
 * Reading the environment: one parser per kind of value, each refusing a bad value with a
 * `ConfigError` whose message is one plain line naming the variable and what it must be (never the
 * value of a URL or a key, which may carry a secret). Both services build their configuration from
 * these and from nothing else (server/config/index.ts).
 */

import { isIP } from "node:net";
// The address packages alone (viem and @solana/kit are built on them): the configuration is read before anything else
// loads, and a refusal should not wait for whole chain clients.
import { isAddress as isSolanaAddress } from "@solana/addresses";
import { checksum, validate as isEvmAddress } from "ox/Address";

export class ConfigError extends Error {}

export type Env = Record<string, string | undefined>;

/** The trimmed value, or undefined when unset or empty. */
export function present(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/** The longest delay a Node.js timer takes (2^31 - 1 ms, about 24.8 days); a longer one fires at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** A positive integer up to `max`; a `*_MS` duration is at most `MAX_TIMER_MS` unless `max` says less. */
export function positiveInt(
  env: Env,
  name: string,
  fallback: number,
  max = name.endsWith("_MS") ? MAX_TIMER_MS : Number.MAX_SAFE_INTEGER,
): number {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^[0-9]+$/.test(raw) || !Number.isSafeInteger(value) || value <= 0 || value > max)
    throw new ConfigError(
      `${name} must be a positive integer${max < Number.MAX_SAFE_INTEGER ? ` up to ${max}` : ""}, got "${raw}"`,
    );
  return value;
}

/** A TCP port, 1 to 65535. */
export function port(env: Env, name: string, fallback: number): number {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^[0-9]+$/.test(raw) || value < 1 || value > 65_535)
    throw new ConfigError(`${name} must be a port number from 1 to 65535, got "${raw}"`);
  return value;
}

/** `true` or `false`. */
export function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  if (raw !== "true" && raw !== "false") throw new ConfigError(`${name} must be true or false, got "${raw}"`);
  return raw === "true";
}

/** An EVM address: 20 bytes of hex; mixed case only with a valid EIP-55 checksum. Returned as given. */
export function evmAddress(env: Env, name: string, fallback: string): string {
  const raw = present(env, name) ?? fallback;
  if (!/^0x[0-9a-fA-F]{40}$/.test(raw))
    throw new ConfigError(`${name} must be an EVM address (0x and 40 hex digits), got "${raw}"`);
  if (!isEvmAddress(raw, { strict: true }))
    throw new ConfigError(
      `${name} has mixed case but not a valid EIP-55 checksum (${checksum(raw)} is); write it so or in lowercase`,
    );
  return raw;
}

/** A Solana address: base58 of 32 bytes. */
export function solanaAddress(env: Env, name: string, fallback: string): string {
  const raw = present(env, name) ?? fallback;
  if (!isSolanaAddress(raw))
    throw new ConfigError(`${name} must be a Solana address (base58 of 32 bytes), got "${raw}"`);
  return raw;
}

/** One of `values`; the message lists them. */
export function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = present(env, name) ?? fallback;
  if (!values.includes(raw as T)) throw new ConfigError(`${name} must be ${values.join(", ")}; got "${raw}"`);
  return raw as T;
}

/**
 * A URL of one of `protocols`, without its trailing slash; the value is not echoed (it may carry a
 * key). An http(s) URL carries no user name or password (fetch refuses them; a key goes in its own
 * variable or header), and a `base` URL, which the service appends paths to, no query or fragment.
 */
export function url(
  env: Env,
  name: string,
  fallback: string | undefined,
  protocols: readonly string[],
  { base = false }: { base?: boolean } = {},
): string | undefined {
  const raw = present(env, name) ?? fallback;
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(`${name} must be a ${protocols.join(" or ")} URL`);
  if (parsed.protocol.startsWith("http") && (parsed.username || parsed.password))
    throw new ConfigError(`${name} must not carry a user name or password (fetch refuses such URLs)`);
  if (base && (parsed.search || parsed.hash))
    throw new ConfigError(`${name} must not carry a query or fragment: the service appends paths to it`);
  return raw.replace(/\/+$/, "");
}

/** The public origin of a service (`https://api.example.com`, or with a path prefix): no query, fragment or credentials. */
export function publicBaseUrl(env: Env, name: string): string | undefined {
  const raw = present(env, name);
  if (!raw) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got "${raw}"`);
  }
  if (
    (parsed.protocol !== "http:" && parsed.protocol !== "https:") ||
    parsed.search ||
    parsed.hash ||
    parsed.username ||
    parsed.password
  )
    throw new ConfigError(`${name} must be an http(s) origin with an optional path, got "${raw}"`);
  return `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, "");
}

/**
 * `TRUST_PROXY`, Express's `trust proxy`: unset = trust no proxy (X-Forwarded-* ignored); a hop
 * count; or a comma-separated list of addresses, subnets and `loopback`, `linklocal`, `uniquelocal`.
 */
export function trustProxy(env: Env): string | number | false {
  const raw = present(env, "TRUST_PROXY");
  if (!raw || raw === "false") return false;
  if (/^[0-9]+$/.test(raw)) return Number(raw);
  const entries = raw.split(",").map((entry) => entry.trim());
  const bad = entries.find((entry) => !proxyEntry(entry));
  if (bad !== undefined)
    throw new ConfigError(
      `TRUST_PROXY must be a hop count or addresses, subnets, loopback, linklocal or uniquelocal; "${bad}" is none`,
    );
  return entries.join(",");
}

/** A `TRUST_PROXY` entry: a named range, or an IPv4/IPv6 address with an optional prefix length that fits it. */
function proxyEntry(entry: string): boolean {
  if (entry === "loopback" || entry === "linklocal" || entry === "uniquelocal") return true;
  const [address = "", prefix, extra] = entry.split("/");
  const version = isIP(address);
  if (!version || extra !== undefined) return false;
  return prefix === undefined || (/^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

/** `WORKERS`: a count of worker processes, or `auto` for one per core; unset = 1 (no cluster). */
export function workers(env: Env, cores: number): number {
  const raw = present(env, "WORKERS");
  if (raw === "auto") return cores;
  if (raw !== undefined && !/^[1-9][0-9]{0,3}$/.test(raw))
    throw new ConfigError(`WORKERS must be a positive integer or auto, got "${raw}"`);
  return raw === undefined ? 1 : Number(raw);
}

/** An SQL identifier the configuration may name (a schema): lower case, digits and `_`, as PostgreSQL folds it. */
export function identifier(env: Env, name: string, fallback: string): string {
  const raw = present(env, name) ?? fallback;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(raw))
    throw new ConfigError(`${name} must be a lower-case SQL identifier (a-z, 0-9, _), got "${raw}"`);
  return raw;
}

/**
 * Opens the file a variable names (`LEDGER_DB`, `REGISTRY_DB`): whatever stops it (not a database,
 * not writable, under a file) refuses the start in one line naming the variable and the file.
 */
export async function openNamedFile<T>(
  name: string,
  file: string,
  role: string,
  open: () => T | Promise<T>,
): Promise<T> {
  try {
    return await open();
  } catch (error) {
    const why = error instanceof Error ? error.message.replace(/^E[A-Z]+: /, "") : String(error);
    throw new ConfigError(`${name} ${file} cannot be opened as the ${role}: ${why}`);
  }
}
