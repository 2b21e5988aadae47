// `npm run dredd`: Dredd on the generated OpenAPI 3.0 documents (Dredd does not support 3.1) against the
// in-process services (the analytics document in parts, see `analyticsParts`), with conformance/dredd-hooks.cjs
// attaching a valid payment per prefix. Dredd runs in this process, so the hooks use this process's payer
// (globalThis.conformanceDredd). Exits non-zero on any failure.
// Options: --verbose (Dredd's warnings and every transaction).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Dredd from "dredd";
import { UNKNOWN_AGENT } from "../conformance/cases.js";
import { decodeHeader } from "../conformance/checks.js";
import { startServices } from "../conformance/in-process-target.js";
import { createPayer, paymentHeader } from "../conformance/payer.js";
import { commandLine } from "../lib/command-line.mjs";
import { NETWORKS } from "../lib/networks.js";
import { reachedComponents } from "../lib/openapi-refs.mjs";

const USAGE = `usage: npm run dredd [-- --verbose]

Dredd on the generated OpenAPI 3.0 documents against both services started in this process, paying each paid
operation with a fresh payment. Exits non-zero on any failure.

  --verbose   Dredd's warnings and every transaction
  --help      this text`;

const root = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const verbose = commandLine(USAGE, { flags: ["--verbose"] }).flags.has("--verbose");

/**
 * The analytics document in parts, one per URL prefix and first path segment (`/base/defi`, `/lp`), each with only
 * the components its paths reach. Dredd deep-copies its configuration, parsed documents included, with a copy whose
 * cost grows with the square of their size: one run of the whole document spent most of its time there.
 */
function analyticsParts() {
  const document = JSON.parse(readFileSync(root("generated/openapi/3.0/analytics.json"), "utf8"));
  const prefixes = NETWORKS.map((network) => network.prefix).filter(Boolean);
  const parts = new Map();
  for (const [path, item] of Object.entries(document.paths)) {
    const prefix = prefixes.find((p) => path.startsWith(`${p}/`)) ?? "";
    const part = `${prefix}/${path.slice(prefix.length).split("/")[1]}`;
    parts.set(part, { ...parts.get(part), [path]: item });
  }
  return [...parts.values()].map((paths) => ({
    content: JSON.stringify({
      ...document,
      paths,
      components: reachedComponents(document.components, [paths, document.security]),
    }),
  }));
}

/** One Dredd run against `endpoint`: `source` is a document's file (`path`) or its text (`content`). */
function runDredd(source, endpoint) {
  const config = {
    endpoint,
    ...(source.path ? { path: [root(source.path)] } : { path: [], apiDescriptions: [source.content] }),
    hookfiles: [root("conformance/dredd-hooks.cjs")],
    loglevel: verbose ? "warning" : "error",
    reporter: verbose ? [] : ["dot"],
    color: process.stdout.isTTY,
  };
  return new Promise((resolve, reject) => {
    new Dredd(config).run((error, stats) => (error ? reject(error) : resolve(stats)));
  });
}

const started = performance.now();
const services = await startServices({ analytics: true, registry: true });
const { analyticsUrl, registryUrl } = services.target;
const skipped = new Map();
const payer = await createPayer();
globalThis.conformanceDredd = {
  pay: (version, body, challenge, identifier) =>
    paymentHeader(payer, version, body.accepts[0], challenge ? decodeHeader(challenge) : undefined, identifier),
  unknownAgent: UNKNOWN_AGENT,
  skipped,
};
/** Each service's counts, its parts' added up. */
const results = new Map();
const add = (service, stats) => {
  const total = results.get(service) ?? { passes: 0, failures: 0, errors: 0, skipped: 0, tests: 0 };
  for (const key of Object.keys(total)) total[key] += stats[key];
  results.set(service, total);
};
try {
  for (const { content } of analyticsParts()) add("analytics", await runDredd({ content }, analyticsUrl));
  add("registry", await runDredd({ path: "generated/openapi/3.0/registry.json" }, registryUrl));
} catch (error) {
  console.error(`dredd: ${error.message}`);
  process.exitCode = 1;
} finally {
  await services.stop();
}
for (const [reason, count] of skipped) console.log(`dredd skipped ${count} × ${reason}`);
for (const [service, r] of results) {
  console.log(
    `dredd ${service}: ${r.passes} passing, ${r.failures} failing, ${r.errors} errors, ${r.skipped} skipped, ${r.tests} total`,
  );
  if (r.failures || r.errors) process.exitCode = 1;
}
console.log(`dredd: ${((performance.now() - started) / 1000).toFixed(1)} s`);
// Dredd's dependencies keep handles open; the result is known, so leave now.
process.exit();
