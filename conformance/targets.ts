/**
 * What the conformance suite runs against, read from the environment:
 *
 * - `CONFORMANCE_TARGET=server` (default): the services in-process on ephemeral ports, with their
 *   own response validation off so that the suite's independent validator judges the raw answers.
 * - `CONFORMANCE_TARGET=prism`: the Prism mock of both 3.1 documents (started by the conformance
 *   config's global setup, or an `npm run mock` already running on 4010/4011).
 * - `CONFORMANCE_TARGET=url` (implied by `CONFORMANCE_BASE_URL`): a deployment; the registry is
 *   checked when `CONFORMANCE_REGISTRY_URL` is set too.
 *
 * `CONFORMANCE_NETWORK=base,skale` limits the prefixes (solana = the root paths);
 * `CONFORMANCE_PAY=0` stops the suite from paying a deployment.
 */
import { type Family, NETWORKS, type NetworkName } from "../lib/networks.js";
import { MOCK_PORTS } from "./mock-ports.js";

export type TargetKind = "server" | "prism" | "url";
export type PrefixName = NetworkName;
/** A prefix to test, from the contract's network table: its name, family and v1 network names. */
export interface Prefix {
  name: PrefixName;
  prefix: string;
  family: Family;
  mainnet: string;
  testnet: string;
}

export const ALL_PREFIXES: Prefix[] = NETWORKS.map(({ name, prefix, family, mainnet, testnet }) => ({
  name,
  prefix,
  family,
  mainnet: mainnet.network,
  testnet: testnet.network,
}));

export interface TargetSettings {
  kind: TargetKind;
  prefixes: Prefix[];
  baseUrl?: string;
  registryUrl?: string;
  pay: boolean;
  timeoutMs: number;
}

/** Base URLs of a running target (serializable: the global setup hands it to the test files). */
export interface Target {
  kind: TargetKind;
  analyticsUrl?: string;
  registryUrl?: string;
  /** An analytics service whose model always fails: every paid answer is a 206 (in-process only). */
  degradedUrl?: string;
  /** The analytics service's ledger file (in-process only): what was charged can be read back. */
  ledgerDb?: string;
}

export interface RunningTarget {
  target: Target;
  stop(): Promise<void>;
}

const trimSlash = (url: string | undefined) => url?.replace(/\/+$/, "") || undefined;

export function targetSettings(env: Record<string, string | undefined> = process.env): TargetSettings {
  const baseUrl = trimSlash(env.CONFORMANCE_BASE_URL);
  const kind = (env.CONFORMANCE_TARGET || (baseUrl ? "url" : "server")) as TargetKind;
  if (!["server", "prism", "url"].includes(kind))
    throw new Error(`CONFORMANCE_TARGET must be server, prism or url, got "${kind}"`);
  if (kind === "url" && !baseUrl) throw new Error("CONFORMANCE_TARGET=url needs CONFORMANCE_BASE_URL");
  const wanted = (env.CONFORMANCE_NETWORK ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const unknown = wanted.filter((name) => !ALL_PREFIXES.some((p) => p.name === name));
  if (unknown.length) throw new Error(`CONFORMANCE_NETWORK: unknown ${unknown.join(", ")} (use solana, base, skale)`);
  return {
    kind,
    prefixes: wanted.length ? ALL_PREFIXES.filter((p) => wanted.includes(p.name)) : ALL_PREFIXES,
    baseUrl,
    registryUrl: trimSlash(env.CONFORMANCE_REGISTRY_URL),
    pay: env.CONFORMANCE_PAY !== "0",
    timeoutMs: Number(env.CONFORMANCE_TIMEOUT_MS) || 15_000,
  };
}

export interface ServiceChoice {
  analytics?: boolean;
  registry?: boolean;
  degraded?: boolean;
}

/** An `npm run mock` already running: checked once, never stopped by the suite. */
async function runningMock(): Promise<RunningTarget> {
  const target: Target = {
    kind: "prism",
    analyticsUrl: `http://127.0.0.1:${MOCK_PORTS.analytics}`,
    registryUrl: `http://127.0.0.1:${MOCK_PORTS.registry}`,
  };
  try {
    await fetch(`${target.analyticsUrl}/`, { signal: AbortSignal.timeout(2_000) });
  } catch {
    throw new Error(
      "CONFORMANCE_TARGET=prism: no Prism found; run `npm run conformance -- --target prism` (which starts it) or `npm run mock`",
    );
  }
  return { target, stop: async () => {} };
}

/**
 * The target of one test file: the one a global setup provides, else one of its own (in-process
 * services limited to `choice`, a running mock, or the deployment's URLs).
 */
export async function openTarget(
  settings: TargetSettings,
  provided: Target | undefined,
  choice: ServiceChoice,
): Promise<RunningTarget> {
  if (provided) return { target: provided, stop: async () => {} };
  // Loaded only when chosen: the in-process target is the whole service, which a run against a URL never needs.
  if (settings.kind === "server") return (await import("./in-process-target.js")).startServices(choice);
  if (settings.kind === "prism") return runningMock();
  return {
    target: { kind: "url", analyticsUrl: settings.baseUrl, registryUrl: settings.registryUrl },
    stop: async () => {},
  };
}
