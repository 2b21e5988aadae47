/** Embedded, deterministic stand-in for the launches role. */
import type { Clock } from "../../clock.js";
import type { LaunchProvider } from "../launches.js";

export function createEmbeddedLaunches(_options: { seed: string; clock: Clock }): LaunchProvider {
  return { source: "embedded-launches" };
}
