/**
 * Global setup of the conformance config: one target for every test file of the run. In-process
 * services pay the per-route validator compilation once; Prism (free ports) starts once and is
 * stopped by its PID. A URL target needs nothing started.
 */
import type { TestProject } from "vitest/node";
import { startMock } from "./mock.js";
import { type RunningTarget, startServices, targetSettings } from "./targets.js";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const settings = targetSettings();
  let running: RunningTarget | undefined;
  if (settings.kind === "server") running = await startServices();
  if (settings.kind === "prism") running = await startMock();
  project.provide("conformanceTarget", running?.target);
  return async () => {
    await running?.stop();
  };
}
