// `npm run dredd`: Dredd on the generated OpenAPI 3.0 documents (Dredd does not support 3.1) against the
// in-process services, with conformance/dredd-hooks.cjs attaching a valid payment per prefix. Dredd runs in this
// process, so the hooks use this process's payer (globalThis.conformanceDredd). Exits non-zero on any failure.
// Options: --verbose (Dredd's warnings and every transaction).
import { fileURLToPath } from "node:url";
import Dredd from "dredd";
import { UNKNOWN_AGENT } from "../conformance/cases.js";
import { decodeHeader } from "../conformance/checks.js";
import { createPayer, paymentHeader } from "../conformance/payer.js";
import { startServices } from "../conformance/targets.js";
import { commandLine } from "./command-line.mjs";

const USAGE = `usage: npm run dredd [-- --verbose]

Dredd on the generated OpenAPI 3.0 documents against both services started in this process, paying each paid
operation with a fresh payment. Exits non-zero on any failure.

  --verbose   Dredd's warnings and every transaction
  --help      this text`;

const root = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const verbose = commandLine(USAGE, { flags: ["--verbose"] }).flags.has("--verbose");

function runDredd(name, document, endpoint) {
  const config = {
    endpoint,
    path: [root(document)],
    hookfiles: [root("conformance/dredd-hooks.cjs")],
    loglevel: verbose ? "warning" : "error",
    reporter: verbose ? [] : ["dot"],
    color: process.stdout.isTTY,
  };
  return new Promise((resolve, reject) => {
    new Dredd(config).run((error, stats) => (error ? reject(error) : resolve({ name, ...stats })));
  });
}

const started = performance.now();
const services = await startServices({ analytics: true, registry: true });
const { analyticsUrl, registryUrl } = services.target;
const skipped = new Map();
const payer = await createPayer();
globalThis.conformanceDredd = {
  pay: (version, body, challenge) => paymentHeader(payer, version, body.accepts[0], challenge ? decodeHeader(challenge) : undefined),
  unknownAgent: UNKNOWN_AGENT,
  skipped,
};
let results = [];
try {
  results = [
    await runDredd("analytics", "generated/openapi/3.0/analytics.json", analyticsUrl),
    await runDredd("registry", "generated/openapi/3.0/registry.json", registryUrl),
  ];
} catch (error) {
  console.error(`dredd: ${error.message}`);
  process.exitCode = 1;
} finally {
  await services.stop();
}
for (const [reason, count] of skipped) console.log(`dredd skipped ${count} × ${reason}`);
for (const r of results) {
  console.log(`dredd ${r.name}: ${r.passes} passing, ${r.failures} failing, ${r.errors} errors, ${r.skipped} skipped, ${r.tests} total`);
  if (r.failures || r.errors) process.exitCode = 1;
}
console.log(`dredd: ${((performance.now() - started) / 1000).toFixed(1)} s`);
// Dredd's dependencies keep handles open; the result is known, so leave now.
process.exit();
