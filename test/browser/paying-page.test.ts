/**
 * A web page on another origin pays the service with the official clients in a real browser:
 * @x402/fetch (v2) and x402-fetch (v1), bundled as a page would ship them, in Debian's Chromium.
 * The browser enforces CORS as no Node client does: the preflight must allow every header the
 * clients send (both add `Access-Control-Expose-Headers` to their paid retry), and the receipt
 * header must be exposed for the page to read it.
 */
import { createServer, type Server } from "node:http";
import { build } from "esbuild";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { networkNamed } from "../../lib/networks.js";
import { createAnalyticsService } from "../../server/analytics/service.js";
import { loadAnalyticsConfig } from "../../server/config/analytics.js";
import { createLogger } from "../../server/http/logger.js";
import { browserSuiteRuns, launchChromium, listenLocally } from "../support/chromium.js";

type Paid = {
  status?: number;
  receipt?: { success: boolean; network: string };
  envelope?: { signal: string };
  error?: string;
};

describe.runIf(browserSuiteRuns("paying page browser test"))("a page on another origin paying in Chromium", () => {
  let browser: Browser;
  let page: Page;
  let service: Awaited<ReturnType<typeof createAnalyticsService>>;
  const servers: Server[] = [];
  let api = "";
  const consoleLines: string[] = [];

  beforeAll(async () => {
    const bundled = await build({
      entryPoints: [new URL("paying-page.entry.ts", import.meta.url).pathname],
      bundle: true,
      format: "iife",
      platform: "browser",
      write: false,
      logLevel: "silent",
    });
    const script = bundled.outputFiles[0]?.text ?? "";
    const site = createServer((req, res) => {
      if (req.url === "/page.js") res.setHeader("Content-Type", "text/javascript").end(script);
      else
        res
          .setHeader("Content-Type", "text/html")
          .end('<!doctype html><title>payer</title><script src="/page.js"></script>');
    });
    service = await createAnalyticsService(loadAnalyticsConfig({ LEDGER_DB: ":memory:", NODE_ENV: "test" }), {
      logger: createLogger("silent"),
    });
    const [pageOrigin, apiOrigin] = await Promise.all([listenLocally(site), listenLocally(service.app)]);
    servers.push(pageOrigin.server, apiOrigin.server);
    api = apiOrigin.url;
    browser = await launchChromium();
    page = await browser.newPage();
    page.on("console", (message) => consoleLines.push(message.text()));
    await page.goto(pageOrigin.url);
    await page.waitForFunction(() => "payWith" in globalThis);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    await service?.close();
  });

  const base = networkNamed("base")?.testnet;
  it.each([
    [2, base?.caip2],
    [1, base?.network],
  ] as const)("pays over x402 v%i and reads the answer and its receipt", async (version, network) => {
    const url = `${api}/base/defi/tvl`;
    const paid = (await page.evaluate(
      ([v, u]) =>
        (globalThis as unknown as { payWith(v: number, u: string, b: unknown): Promise<Paid> }).payWith(v, u, {
          limit: 2,
        }),
      [version, url] as const,
    )) as Paid;
    expect(paid.error, consoleLines.join("\n")).toBeUndefined();
    expect(paid.status).toBe(200);
    expect(paid.receipt).toMatchObject({ success: true, network });
    expect(typeof paid.envelope?.signal).toBe("string");
  });
});
