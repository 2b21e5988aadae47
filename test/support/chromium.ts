// Test support: Debian's Chromium driven by playwright-core (never a browser download). Without it
// a browser suite is skipped with one line saying how to enable it; under CI=true a missing
// Chromium fails instead (.ci/run installs it).
import { existsSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Browser, chromium } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

/** The flags this machine needs: no sandbox as root, and no background connections its closed network refuses. */
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const hasChromium = existsSync(CHROMIUM);

/** Whether a browser suite runs; says once, for `suite`, how to enable it when it does not. */
export function browserSuiteRuns(suite: string): boolean {
  if (!hasChromium && process.env.CI !== "true")
    console.log(`${suite} skipped: no ${CHROMIUM} (install Debian's chromium: apt-get install chromium)`);
  return hasChromium || process.env.CI === "true";
}

/** A fresh Chromium (playwright gives each launch a temporary user-data-dir of its own). */
export async function launchChromium(): Promise<Browser> {
  if (!hasChromium)
    throw new Error(`CI=true and no ${CHROMIUM}: install Debian's chromium (.ci/run does when it is missing)`);
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/** Listens on 127.0.0.1 at a free port; its origin and server. */
export function listenLocally(app: {
  listen(port: number, host: string, cb: () => void): Server;
}): Promise<{ url: string; server: Server }> {
  return new Promise((resolve) => {
    const server = app.listen(0, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }),
    );
  });
}
