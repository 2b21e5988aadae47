/**
 * Global setup of the conformance config: one target for every test file of the run. In-process
 * services pay the per-route validator compilation once; Prism (free ports) starts once and is
 * stopped by its PID. A URL target needs nothing started.
 */
import type { TestProject } from "vitest/node";
import { type RunningTarget, targetSettings } from "./targets.js";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const settings = targetSettings();
  let running: RunningTarget | undefined;
  // Each loaded only when chosen: a run against a URL needs neither the service nor the mock.
  if (settings.kind === "server") running = await (await import("./in-process-target.js")).startServices();
  if (settings.kind === "prism") running = await (await import("./mock.js")).startMock();
  project.provide("conformanceTarget", running?.target);
  return async () => {
    await running?.stop();
  };
}
