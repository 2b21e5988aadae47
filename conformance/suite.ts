/**
 * The vitest side of the suite, shared by every test file: the target of this run (one per file,
 * or the one the conformance config's global setup provides), and tests that are skipped with
 * their reason when the target cannot do what they check.
 */
import { afterAll, beforeAll, inject, it } from "vitest";
import { observeTarget } from "./observations.js";
import { type Check, skipReason } from "./skips.js";
import { openTarget, type RunningTarget, type ServiceChoice, type Target, targetSettings } from "./targets.js";

declare module "vitest" {
  export interface ProvidedContext {
    conformanceTarget: Target | undefined;
  }
}

export const settings = targetSettings();

type TargetUrls = ((which: "analyticsUrl" | "registryUrl" | "degradedUrl") => string) & {
  /** The analytics ledger file when the target is in-process, else undefined. */
  ledgerDb(): string | undefined;
};

/** Opens this file's target before its tests and closes it after; the getter names a missing URL. */
export function useTarget(choice: ServiceChoice): TargetUrls {
  let running: RunningTarget | undefined;
  beforeAll(async () => {
    running = await openTarget(settings, inject("conformanceTarget"), choice);
    observeTarget(running.target);
  }, 180_000);
  afterAll(async () => {
    await running?.stop();
  });
  const url = (which: "analyticsUrl" | "registryUrl" | "degradedUrl") => {
    const found = running?.target[which];
    if (!found) throw new Error(`the ${settings.kind} target has no ${which}`);
    return found;
  };
  return Object.assign(url, { ledgerDb: () => running?.target.ledgerDb });
}

/** One test of one case; skipped, with the reason in its title, when the target cannot do one of `checks`. */
export function caseTest(name: string, checks: Check | Check[], fn: () => Promise<void>, timeout?: number): void {
  const reason = [checks]
    .flat()
    .map((check) => skipReason(settings, check))
    .find(Boolean);
  if (reason) it.skip(`${name} (skipped: ${reason})`, fn);
  else it(name, fn, timeout);
}

/** The header that makes the mock answer a given documented status of the operation (its example). */
export function prefer(status: number): Record<string, string> {
  return { Prefer: `code=${status}` };
}

export const isPrism = settings.kind === "prism";
