#!/usr/bin/env node
// Builds generated/ from spec/: TypeSpec → OpenAPI 3.1 and 3.0 (JSON and YAML) per service, then
// openapi-typescript types. `--check` builds into memory and fails when generated/ differs, so a
// stale or hand-edited generated/ never passes CI.
//
// Derivations happen after the TypeSpec emitter: every paid operation gets its 402 and 206
// examples from its own `x-payment-info` and 200 example, so Prism, Dredd and the docs show a
// challenge whose amount, network and asset can never disagree with the price; every error
// status gets its own example, each paid operation its price in its description and the
// document the tables of networks and prices (scripts/derive-documents.mjs). The analytics 3.1
// document is also written once per network (`analytics-base.json`: the `/base` operations and
// the free ones), the files `GET /openapi.json?network=base` serves. The MCP registry's listing
// (`mcp/server.json`) is derived from the analytics document and the bridge package's manifest
// (scripts/mcp-registry.mjs).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import YAML from "yaml";
import { commandLine } from "../lib/command-line.mjs";
import { parametersOf } from "../lib/openapi-refs.mjs";
import { deriveErrorExamples, describePrices, networkDocument, prefixNames } from "./derive-documents.mjs";
import { registryListing } from "./mcp-registry.mjs";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const outDir = join(root, "generated");
const services = { Analytics: "analytics", Registry: "registry" };
const versions = { "3.1.0": "3.1", "3.0.0": "3.0" };
const JSON_MEDIA = "application/json";

function compileSpec() {
  const scratch = mkdtempSync(join(tmpdir(), "tsp-"));
  try {
    const tsp = join(root, "node_modules/@typespec/compiler/cmd/tsp.js");
    try {
      execFileSync(process.execPath, [tsp, "compile", "spec/main.tsp", "--output-dir", scratch, "--warn-as-error"], {
        cwd: root,
        stdio: ["ignore", "pipe", "pipe"],
      });
    } catch (error) {
      process.stderr.write(error.stdout ?? "");
      process.stderr.write(error.stderr ?? "");
      throw new Error("TypeSpec compilation failed (diagnostics above).");
    }
    const docs = {};
    for (const [version, short] of Object.entries(versions)) {
      for (const [service, name] of Object.entries(services)) {
        docs[`${short}/${name}`] = JSON.parse(
          readFileSync(join(scratch, "openapi", version, `${service}.json`), "utf8"),
        );
      }
    }
    return docs;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function exampleOf(response) {
  const media = response?.content?.[JSON_MEDIA];
  if (!media) return undefined;
  return media.example ?? Object.values(media.examples ?? {})[0]?.value;
}

/** The path with its parameters filled from their examples: what a caller would actually request. */
function concretePath(path, operation) {
  return path.replace(/\{([^}]+)\}/g, (_, name) => {
    const param = operation.parameters?.find((p) => p.in === "path" && p.name === name);
    return encodeURIComponent(String(param?.example ?? name));
  });
}

function challengeExample(doc, path, method, operation) {
  const info = operation["x-payment-info"];
  const defaults = doc["x-x402-development-defaults"];
  const network = info.network.testnet;
  const family = defaults[info.network.family];
  const input = { type: "http", method: method.toUpperCase(), discoverable: true };
  if (method === "post") input.bodyType = "json";
  return {
    x402Version: 1,
    error: "X-PAYMENT header is required",
    message: `Pay ${info.price.amount} USD in USDC on ${network.network} and repeat the request with the PAYMENT-SIGNATURE (x402 v2) or X-PAYMENT (x402 v1) header.`,
    accepts: [
      {
        scheme: "exact",
        network: network.network,
        maxAmountRequired: info.maxAmountRequired,
        resource: new URL(concretePath(path, operation), doc.servers[0].url).href,
        description: operation.summary,
        mimeType: JSON_MEDIA,
        payTo: family.payTo,
        maxTimeoutSeconds: defaults.maxTimeoutSeconds,
        asset: network.asset,
        outputSchema: { input },
        extra: info.network.family === "evm" ? network.eip712 : { feePayer: family.feePayer },
      },
    ],
  };
}

function deriveExamples(doc) {
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!operation["x-payment-info"]) continue;
      const answer = exampleOf(operation.responses["200"]);
      if (!answer) throw new Error(`${operation.operationId}: paid operation without a 200 example`);
      operation.responses["206"].content[JSON_MEDIA].example = { ...answer, insight: null, model_used: null };
      operation.responses["402"].content[JSON_MEDIA].example = challengeExample(doc, path, method, operation);
    }
  }
}

/**
 * @typespec/openapi3 1.11 writes a query parameter's `@minValueExclusive` in the 3.0 form
 * (`minimum: x, exclusiveMinimum: true`) in 3.1 documents too, where `exclusiveMinimum` must be the
 * number (a body property gets it right): rewritten here, for the 3.1 documents' parameters only.
 */
function exclusiveBoundsAsNumbers(doc) {
  const parameters = [
    ...Object.values(doc.components?.parameters ?? {}),
    ...Object.values(doc.paths).flatMap((item) =>
      Object.values(item).flatMap((operation) => operation.parameters ?? []),
    ),
  ];
  for (const { schema } of parameters) {
    for (const [bound, exclusive] of [
      ["minimum", "exclusiveMinimum"],
      ["maximum", "exclusiveMaximum"],
    ]) {
      if (schema?.[exclusive] !== true) continue;
      schema[exclusive] = schema[bound];
      delete schema[bound];
    }
  }
}

/**
 * A legacy GET's query values are free text at times (`/ask?query=…`), and form encoding (HTML forms,
 * URLSearchParams) writes a space as `+`: a reserved character, which express-openapi-validator refuses
 * unless the parameter allows reserved characters. TypeSpec's `@query` has no `allowReserved`: set here.
 */
function queryAllowsReserved(doc) {
  for (const item of Object.values(doc.paths)) {
    for (const parameter of item.get?.["x-payment-info"] ? parametersOf(doc, item.get.parameters) : []) {
      if (parameter.in === "query") parameter.allowReserved = true;
    }
  }
}

async function build() {
  const docs = compileSpec();
  const files = {};
  const write = (key, doc) => {
    describePrices(doc);
    files[`openapi/${key}.json`] = `${JSON.stringify(doc, null, 2)}\n`;
    files[`openapi/${key}.yaml`] = YAML.stringify(doc, { lineWidth: 0 });
  };
  for (const [key, doc] of Object.entries(docs)) {
    if (key.startsWith("3.1/")) exclusiveBoundsAsNumbers(doc);
    queryAllowsReserved(doc);
    deriveExamples(doc);
    deriveErrorExamples(doc);
    if (key === "3.1/analytics")
      for (const name of prefixNames(doc)) write(`${key}-${name}`, networkDocument(doc, name));
    write(key, doc);
  }
  // The network table alone, for the readers that need nothing else of the contract (lib/networks.ts).
  files["networks.json"] = `${JSON.stringify(
    {
      $comment: "The payment networks of spec/analytics/x402.tsp, written by npm run generate; do not edit.",
      networks: docs["3.1/analytics"]["x-x402-networks"],
    },
    null,
    2,
  )}\n`;
  // The listing names the package that ships the stdio bridge, by the name and version of its manifest.
  const bridge = JSON.parse(readFileSync(join(root, "packages/client/package.json"), "utf8"));
  files["mcp/server.json"] = `${JSON.stringify(registryListing(docs["3.1/analytics"], bridge), null, 2)}\n`;
  for (const name of Object.values(services)) {
    // Optional stays optional even with a default: the types describe what a caller may send.
    const ast = await openapiTS(structuredClone(docs[`3.1/${name}`]), { defaultNonNullable: false });
    files[`types/${name}.d.ts`] = astToString(ast);
  }
  return files;
}

function listFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(outDir, join(entry.parentPath ?? entry.path, entry.name)));
}

const USAGE = `usage: npm run generate [-- --check]   (npm run generate:check is the same with --check)

Builds generated/ from spec/: OpenAPI 3.1 and 3.0 of both services (JSON and YAML), the analytics 3.1 document
per network (analytics-solana, -base, -skale), the network table (networks.json), the openapi-typescript types and
the MCP registry's listing of the analytics service (mcp/server.json).

  --check   build in memory and fail (exit 1) when generated/ differs, writing nothing
  --help    this text`;

const check = commandLine(USAGE, { flags: ["--check"] }).flags.has("--check");
const files = await build();
if (check) {
  const stale = Object.entries(files)
    .filter(([file, text]) => !existsSync(join(outDir, file)) || readFileSync(join(outDir, file), "utf8") !== text)
    .map(([file]) => file);
  const extra = listFiles(outDir).filter((file) => !(file in files));
  if (stale.length || extra.length) {
    console.error("generated/ is stale; run `npm run generate` and commit the result.");
    for (const file of stale) console.error(`  differs: generated/${file}`);
    for (const file of extra) console.error(`  not generated by spec/: generated/${file}`);
    process.exit(1);
  }
  console.log(`generated/ is up to date (${Object.keys(files).length} files).`);
} else {
  rmSync(outDir, { recursive: true, force: true });
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(outDir, file)), { recursive: true });
    writeFileSync(join(outDir, file), text);
  }
  console.log(`wrote ${Object.keys(files).length} files to generated/`);
}
