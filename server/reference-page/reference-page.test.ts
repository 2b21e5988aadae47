/**
 * The `/docs` page of both services in a real browser: Debian's Chromium driven by playwright-core
 * (never a browser download). The page must load with no console error and no request leaving
 * localhost, show the API's title, list the operations, and open one to show its price (taken
 * from the contract, not from this file). Screenshots are kept in test-results/.
 *
 * Without Chromium the suite is skipped with one line saying how to enable it; under CI=true a
 * missing Chromium fails instead.
 */
import { mkdirSync } from "node:fs";
import type { Server } from "node:http";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserSuiteRuns, launchChromium, listenLocally as listen } from "../../test/support/chromium.js";
import { createAnalyticsService } from "../analytics/service.js";
import { loadAnalyticsConfig } from "../config/analytics.js";
import { createLogger } from "../http/logger.js";
import { createRegistryService } from "../registry/service.js";

const ARTIFACTS = new URL("../../test-results/", import.meta.url);
const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);
const PAGE_TIMEOUT_MS = 60_000;

/** A page that records every console error, page error and request to anything but this machine (and refuses those). */
async function watchedPage(browser: Browser): Promise<{ page: Page; errors: string[]; external: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const errors: string[] = [];
  const external: string[] = [];
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (/^(https?|wss?):$/.test(url.protocol) && !LOCAL_HOSTS.has(url.hostname)) {
      external.push(url.href);
      return route.abort();
    }
    return route.continue();
  });
  const page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return { page, errors, external };
}

describe.runIf(browserSuiteRuns("docs page browser test"))("the /docs page in Chromium", () => {
  const logger = createLogger("silent");
  let browser: Browser;
  let analytics: Awaited<ReturnType<typeof createAnalyticsService>>;
  let registry: Awaited<ReturnType<typeof createRegistryService>>;
  const servers: Server[] = [];
  const urls = { analytics: "", registry: "" };

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    analytics = await createAnalyticsService(loadAnalyticsConfig({ LEDGER_DB: ":memory:", NODE_ENV: "test" }), {
      logger,
    });
    registry = await createRegistryService({ dbPath: ":memory:", validateResponses: true, logger });
    for (const [name, app] of [
      ["analytics", analytics.app],
      ["registry", registry.app],
    ] as const) {
      const { url, server } = await listen(app);
      urls[name] = url;
      servers.push(server);
    }
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    await analytics?.close();
    await registry?.close();
  });

  it("shows the analytics API, its operations, and the price of an operation once opened", async () => {
    const { page, errors, external } = await watchedPage(browser);
    const document = (await (await fetch(`${urls.analytics}/openapi.json`)).json()) as {
      info: { title: string };
      tags: { name: string }[];
      paths: Record<
        string,
        Record<string, { summary: string; tags: string[]; "x-payment-info"?: { price: { amount: string } } }>
      >;
    };
    const tvl = document.paths["/defi/tvl"]?.post;
    expect(tvl?.["x-payment-info"]).toBeDefined();

    await page.goto(`${urls.analytics}/docs`, { waitUntil: "networkidle", timeout: PAGE_TIMEOUT_MS });
    await expect
      .poll(() => page.getByRole("heading", { name: document.info.title, level: 1 }).isVisible(), {
        timeout: PAGE_TIMEOUT_MS,
      })
      .toBe(true);
    await expect.poll(() => page.getByText("Paying with x402").first().isVisible()).toBe(true);

    // Every tag of the document is a group of the sidebar; the free operations are listed open.
    const sidebar = page.locator("aside, nav").first();
    for (const tag of document.tags)
      await expect.poll(() => sidebar.getByText(tag.name, { exact: true }).first().isVisible()).toBe(true);
    for (const op of Object.values(document.paths)
      .flatMap((item) => Object.values(item))
      .filter((o) => o.tags.includes("Free")))
      await expect.poll(() => sidebar.getByText(op.summary, { exact: true }).first().isVisible()).toBe(true);

    // Open the DeFi group, then its first operation: its description carries the contract's price.
    await sidebar
      .getByText(tvl?.tags[0] as string, { exact: true })
      .first()
      .click();
    await sidebar
      .getByText(tvl?.summary as string, { exact: true })
      .first()
      .click();
    const price = `Price: ${tvl?.["x-payment-info"]?.price.amount} USD`;
    await expect.poll(() => page.getByText(price).first().isVisible(), { timeout: PAGE_TIMEOUT_MS }).toBe(true);
    await page.getByText(price).first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: new URL("docs-analytics.png", ARTIFACTS).pathname });

    expect(errors, "console errors").toEqual([]);
    expect(external, "requests leaving localhost").toEqual([]);
  });

  it("shows the registry API and its operations", async () => {
    const { page, errors, external } = await watchedPage(browser);
    const document = (await (await fetch(`${urls.registry}/openapi.json`)).json()) as {
      info: { title: string };
      paths: Record<string, { get: { summary: string; tags: string[] } }>;
    };
    await page.goto(`${urls.registry}/docs`, { waitUntil: "networkidle", timeout: PAGE_TIMEOUT_MS });
    await expect
      .poll(() => page.getByRole("heading", { name: document.info.title, level: 1 }).isVisible(), {
        timeout: PAGE_TIMEOUT_MS,
      })
      .toBe(true);
    const sidebar = page.locator("aside, nav").first();
    for (const tag of new Set(Object.values(document.paths).flatMap((item) => item.get.tags))) {
      const group = sidebar.getByText(tag, { exact: true }).first();
      await expect.poll(() => group.isVisible()).toBe(true);
    }
    // The first group (Service) is listed open; the others open on a click.
    for (const tag of ["Registry", "Operations"]) await sidebar.getByText(tag, { exact: true }).first().click();
    for (const { get } of Object.values(document.paths))
      await expect.poll(() => sidebar.getByText(get.summary, { exact: true }).first().isVisible()).toBe(true);
    await page.screenshot({ path: new URL("docs-registry.png", ARTIFACTS).pathname });

    expect(errors, "console errors").toEqual([]);
    expect(external, "requests leaving localhost").toEqual([]);
  });
});
