// The generated OpenAPI documents held against the interface (conformance/interface.ts).
import { describe, expect, it } from "vitest";
import {
  DATA_ENUMS,
  DATA_FIELDS,
  ENDPOINT_SIGNALS,
  ENVELOPE_FIELDS,
  type FieldType,
  FREE_PATHS,
  LEGACY,
  LIMITS,
  PAID_PATHS,
  PREFIXES,
  PRICES,
  REGISTRY_FIELDS,
  REGISTRY_PATHS,
  REQUEST_DEFAULTS,
  REQUEST_ENUMS,
  REQUEST_FIELDS,
  SEGMENT_SIGNALS,
  UNSHOWN_LEGACY,
} from "./interface.js";
import {
  fieldSchema,
  loadDoc,
  microUsdc,
  type OpenApiDoc,
  type Operation,
  operations,
  parametersOf,
  resolve,
  type Schema,
  schemaAt,
  typesOf,
} from "./openapi-doc.js";

const analytics = loadDoc("3.1", "analytics");
const registry = loadDoc("3.1", "registry");
const JSON_MEDIA = "application/json";

function op(doc: OpenApiDoc, method: string, path: string): Operation {
  const found = doc.paths[path]?.[method];
  if (!found) throw new Error(`${method.toUpperCase()} ${path} is not in the document`);
  return found;
}

function bodySchema(operation: Operation, status: string): Schema {
  const schema = operation.responses[status]?.content?.[JSON_MEDIA]?.schema;
  if (!schema) throw new Error(`${operation.operationId}: no JSON ${status} response`);
  return schema;
}

function dataSchema(operation: Operation): Schema {
  const data = schemaAt(analytics, bodySchema(operation, "200"), "data");
  if (!data) throw new Error(`${operation.operationId}: envelope has no data`);
  return data;
}

function requestSchema(operation: Operation): Schema {
  const schema = operation.requestBody?.content[JSON_MEDIA]?.schema;
  if (!schema) throw new Error(`${operation.operationId}: no JSON body`);
  return resolve(analytics, schema);
}

/** Whether a schema's types satisfy an interface type ("number" admits integers). */
function satisfies(types: string[], expected: FieldType): boolean {
  const wanted = expected.split("|");
  const normalized = types.map((t) => (t === "integer" && wanted.includes("number") ? "number" : t));
  return [...new Set(normalized)].sort().join("|") === [...wanted].sort().join("|");
}

function enumOf(schema: Schema | undefined): string[] {
  return ((schema && resolve(analytics, schema).enum) ?? []).map(String).sort();
}

const paidRoutes = PREFIXES.flatMap(({ prefix }) =>
  PAID_PATHS.map((path) => ({ prefix, path, url: `${prefix}${path}` })),
);
const legacyRoutes = PREFIXES.flatMap(({ prefix }) =>
  LEGACY.map((legacy) => ({ prefix, legacy, url: `${prefix}${legacy.path}` })),
);
const unshownLegacyRoutes = PREFIXES.flatMap(({ prefix }) =>
  UNSHOWN_LEGACY.map((path) => ({ prefix, path, url: `${prefix}${path}` })),
);

describe("paths", () => {
  it("serves every priced endpoint as POST under the root, /base and /skale", () => {
    for (const { url } of paidRoutes) expect(analytics.paths[url]?.post, url).toBeDefined();
  });

  it("serves every legacy GET under each prefix, with its parameters in the query or path", () => {
    for (const { url, legacy } of legacyRoutes) {
      const params = parametersOf(analytics, op(analytics, "get", url));
      const names = (where: string) => params.filter((p) => p?.in === where).map((p) => p?.name);
      expect(names("query").sort(), url).toEqual([...legacy.query].sort());
      expect(names("path").sort(), url).toEqual([...legacy.pathParams].sort());
    }
  });

  it("serves the legacy GET of every other endpoint at its POST path, with every body field in the query", () => {
    expect(unshownLegacyRoutes.length).toBeGreaterThan(0);
    for (const { url } of unshownLegacyRoutes) {
      const params = parametersOf(analytics, op(analytics, "get", url));
      const names = (where: string) => params.filter((p) => p?.in === where).map((p) => p?.name);
      const body = Object.keys(requestSchema(op(analytics, "post", url)).properties ?? {});
      expect(names("query").sort(), url).toEqual(body.sort());
      expect(names("path"), url).toEqual([]);
    }
  });

  it("has no paid operation beyond the price table and the legacy GETs", () => {
    const paid = operations(analytics).filter(({ op }) => op["x-payment-info"]);
    expect(paid).toHaveLength(PREFIXES.length * (PAID_PATHS.length + LEGACY.length + UNSHOWN_LEGACY.length));
  });

  it("serves the free endpoints without payment", () => {
    for (const path of FREE_PATHS) {
      const free = op(analytics, "get", path);
      expect(free["x-payment-info"], path).toBeUndefined();
      expect(
        parametersOf(analytics, free).some((p) => p?.name === "X-PAYMENT"),
        path,
      ).toBe(false);
    }
  });

  it("gives every operation a unique operationId whose suffix names its handler", () => {
    const ids = operations(analytics).map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { url, prefix } of paidRoutes) {
      const id = op(analytics, "post", url).operationId;
      expect(id.split("_")[0], url).toBe({ "": "Solana", "/base": "Base", "/skale": "Skale" }[prefix]);
    }
  });
});

describe("x-payment-info", () => {
  it("carries each endpoint's price and its exact micro-USDC amount", () => {
    for (const { url, path } of paidRoutes) {
      const info = op(analytics, "post", url)["x-payment-info"];
      expect(info?.price, url).toEqual({ mode: "fixed", currency: "USD", amount: PRICES[path] });
      expect(info?.maxAmountRequired, url).toBe(microUsdc(PRICES[path]));
      expect(info?.asset).toEqual({ symbol: "USDC", decimals: 6 });
    }
  });

  it("prices each legacy GET exactly like its POST twin", () => {
    for (const { url, prefix, legacy } of legacyRoutes) {
      expect(op(analytics, "get", url)["x-payment-info"], url).toEqual(
        op(analytics, "post", `${prefix}${legacy.of}`)["x-payment-info"],
      );
    }
    for (const { url } of unshownLegacyRoutes)
      expect(op(analytics, "get", url)["x-payment-info"], url).toEqual(op(analytics, "post", url)["x-payment-info"]);
  });

  it("names the network of the route's prefix in both profiles", () => {
    for (const { url, prefix } of paidRoutes) {
      const expected = PREFIXES.find((p) => p.prefix === prefix);
      const network = op(analytics, "post", url)["x-payment-info"]?.network;
      expect(network?.prefix, url).toBe(prefix);
      expect(network?.family, url).toBe(expected?.family);
      expect(network?.mainnet.network, url).toBe(expected?.mainnet);
      expect(network?.testnet.network, url).toBe(expected?.testnet);
      if (expected?.family === "evm") expect(network?.testnet.eip712?.version, url).toBe("2");
    }
  });

  it("records the 90/10 split and the gas policy of each prefix", () => {
    const gas = { "": "sponsored", "/base": "payer", "/skale": "free" };
    for (const { url, prefix } of paidRoutes) {
      const info = op(analytics, "post", url)["x-payment-info"];
      expect(info?.split, url).toEqual({ serviceBps: 9000, treasuryBps: 1000, remainder: "service" });
      expect(info?.network.gas, url).toBe(gas[prefix]);
    }
  });
});

describe("responses of paid operations", () => {
  const allPaid = operations(analytics).filter(({ op }) => op["x-payment-info"]);

  it("declare 200, 206, 400, 402, 404, 409, 500, 502 and 503, take X-PAYMENT (v1) or PAYMENT-SIGNATURE (v2), and name each version's headers", () => {
    for (const { path, op: operation } of allPaid) {
      expect(Object.keys(operation.responses).sort(), path).toEqual([
        "200",
        "206",
        "400",
        "402",
        "404",
        "409",
        "500",
        "502",
        "503",
      ]);
      for (const name of ["X-PAYMENT", "PAYMENT-SIGNATURE"]) {
        const header = parametersOf(analytics, operation).find((p) => p?.name === name);
        expect(header?.in, `${path} ${name}`).toBe("header");
        expect(header?.required, `${path} ${name}`).toBe(false);
      }
      // the receipt comes in the header of the version paid in: each one is optional, one of them is sent
      for (const status of ["200", "206"])
        for (const name of ["X-PAYMENT-RESPONSE", "PAYMENT-RESPONSE"])
          expect(operation.responses[status]?.headers?.[name]?.required, `${path} ${status} ${name}`).toBe(false);
      expect(operation.responses["402"]?.headers?.["PAYMENT-REQUIRED"]?.required, path).toBe(true);
      expect(operation.responses["402"]?.headers?.["Cache-Control"]?.schema, path).toMatchObject({
        enum: ["no-store"],
      });
    }
  });

  it("answer the envelope with every interface field and type", () => {
    for (const { path, op: operation } of allPaid) {
      const envelope = resolve(analytics, bodySchema(operation, "200"));
      for (const [field, [type, required]] of Object.entries(ENVELOPE_FIELDS)) {
        const schema = envelope.properties?.[field];
        expect(schema, `${path} ${field}`).toBeDefined();
        expect(satisfies(typesOf(analytics, schema as Schema), type), `${path} ${field}`).toBe(true);
        if (required) expect(envelope.required, `${path} ${field}`).toContain(field);
      }
      const confidence = resolve(analytics, envelope.properties?.confidence as Schema);
      expect([confidence.minimum, confidence.maximum]).toEqual([0, 1]);
      const timestamp = resolve(analytics, envelope.properties?.timestamp as Schema);
      expect(timestamp.format).toBe("date-time");
      expect(new RegExp(timestamp.pattern as string).test("2026-11-21T12:00:00.123Z")).toBe(true);
      expect(new RegExp(timestamp.pattern as string).test("2026-11-21T12:00:00Z")).toBe(false);
    }
  });

  it("answer 206 with insight and model_used null and the same data and signals", () => {
    for (const { path, op: operation } of allPaid) {
      const raw = resolve(analytics, bodySchema(operation, "206"));
      const full = resolve(analytics, bodySchema(operation, "200"));
      expect(typesOf(analytics, raw.properties?.insight as Schema), path).toEqual(["null"]);
      expect(typesOf(analytics, raw.properties?.model_used as Schema), path).toEqual(["null"]);
      expect(raw.properties?.data, path).toEqual(full.properties?.data);
      expect(enumOf(raw.properties?.signal), path).toEqual(enumOf(full.properties?.signal));
    }
  });

  it("type each endpoint's signal to exactly its vocabulary", () => {
    for (const { url, path } of paidRoutes) {
      const envelope = resolve(analytics, bodySchema(op(analytics, "post", url), "200"));
      expect(enumOf(envelope.properties?.signal), url).toEqual([...ENDPOINT_SIGNALS[path]].sort());
    }
  });

  it("let /ask answer any signal of any segment", () => {
    const every = [...new Set(Object.values(SEGMENT_SIGNALS).flat())].sort();
    expect(enumOf(resolve(analytics, bodySchema(op(analytics, "post", "/ask"), "200")).properties?.signal)).toEqual(
      every,
    );
  });

  it("share one JSON error body with a machine code and a message", () => {
    for (const { path, op: operation } of allPaid) {
      for (const status of ["400", "404", "500", "502"]) {
        const body = resolve(analytics, bodySchema(operation, status));
        expect(body.required, `${path} ${status}`).toEqual(expect.arrayContaining(["error", "message"]));
      }
      const challenge = resolve(analytics, bodySchema(operation, "402"));
      expect(challenge.required, path).toEqual(expect.arrayContaining(["x402Version", "error", "accepts"]));
    }
  });
});

describe("the 402 challenge", () => {
  const requirement = resolve(analytics, analytics.components.schemas["X402.PaymentRequirements"] as Schema);

  it("requires every x402 v1 PaymentRequirements field clients parse", () => {
    expect(requirement.required?.sort()).toEqual(
      [
        "asset",
        "description",
        "maxAmountRequired",
        "maxTimeoutSeconds",
        "mimeType",
        "network",
        "payTo",
        "resource",
        "scheme",
      ].sort(),
    );
    expect(enumOf(requirement.properties?.scheme)).toEqual(["exact"]);
    expect(
      new RegExp(resolve(analytics, requirement.properties?.maxAmountRequired as Schema).pattern as string).test(
        "1000.5",
      ),
    ).toBe(false);
  });

  it("is exemplified per route with the prefix's network, the exact amount and an absolute resource URL", () => {
    for (const { method, path, op: operation } of operations(analytics).filter(({ op }) => op["x-payment-info"])) {
      const info = operation["x-payment-info"];
      const example = operation.responses["402"]?.content?.[JSON_MEDIA]?.example as {
        x402Version: number;
        accepts: {
          network: string;
          maxAmountRequired: string;
          resource: string;
          asset: string;
          outputSchema: { input: { method: string } };
        }[];
      };
      const [accept] = example.accepts;
      expect(example.x402Version).toBe(1);
      expect(example.accepts).toHaveLength(1);
      expect(accept?.network, path).toBe(info?.network.testnet.network);
      expect(accept?.asset, path).toBe(info?.network.testnet.asset);
      expect(accept?.maxAmountRequired, path).toBe(info?.maxAmountRequired);
      expect(new URL(accept?.resource as string).pathname, path).toBe(
        path.replace(/\{[^}]+\}/g, (m) => {
          const param = parametersOf(analytics, operation).find((p) => `{${p?.name}}` === m);
          return String(param?.example);
        }),
      );
      expect(accept?.outputSchema.input.method, path).toBe(method.toUpperCase());
    }
  });
});

describe("requests", () => {
  it("name every interface parameter with its type and required flag", () => {
    for (const [path, fields] of Object.entries(REQUEST_FIELDS)) {
      const schema = requestSchema(op(analytics, "post", path));
      for (const [field, [type, required]] of Object.entries(fields)) {
        const property = schema.properties?.[field];
        expect(property, `${path} ${field}`).toBeDefined();
        const types = typesOf(analytics, property as Schema);
        // `stablecoin` is a string per the interface; the contract also admits a JSON boolean.
        expect(
          types.includes(type === "integer" ? "integer" : (type.split("|")[0] as string)) || satisfies(types, type),
          `${path} ${field}: ${types}`,
        ).toBe(true);
        expect(schema.required?.includes(field) ?? false, `${path} ${field} required`).toBe(required);
      }
    }
  });

  it("apply the interface's defaults", () => {
    for (const [path, defaults] of Object.entries(REQUEST_DEFAULTS)) {
      const schema = requestSchema(op(analytics, "post", path));
      for (const [field, value] of Object.entries(defaults)) {
        expect(schema.properties?.[field]?.default, `${path} ${field}`).toEqual(value);
      }
    }
  });

  it("enforce every limit maximum, also on the legacy GETs", () => {
    for (const [path, { max, default: fallback }] of Object.entries(LIMITS)) {
      const limit = resolve(analytics, requestSchema(op(analytics, "post", path)).properties?.limit as Schema);
      expect([limit.minimum, limit.maximum, limit.default], path).toEqual([1, max, fallback]);
      for (const legacy of LEGACY.filter((l) => l.of === path && l.query.includes("limit" as never))) {
        const query = parametersOf(analytics, op(analytics, "get", legacy.path)).find((p) => p?.name === "limit");
        expect([query?.schema?.maximum, query?.schema?.default], legacy.path).toEqual([max, fallback]);
      }
    }
  });

  it("restrict enumerated parameters to the interface's values", () => {
    for (const [path, enums] of Object.entries(REQUEST_ENUMS)) {
      const schema = requestSchema(op(analytics, "post", path));
      for (const [field, values] of Object.entries(enums))
        expect(enumOf(schema.properties?.[field]), `${path} ${field}`).toEqual([...values].sort());
    }
  });

  it("close every paid body: a field it does not have is refused, not ignored (and charged at the defaults)", () => {
    for (const path of PAID_PATHS)
      expect(requestSchema(op(analytics, "post", path)).unevaluatedProperties, path).toEqual({ not: {} });
  });

  it("use `not` only to close an object, as the service's error message reads it (server/http/errors.ts)", () => {
    const misuses: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (!node || typeof node !== "object") return;
      for (const [key, value] of Object.entries(node)) {
        const closing =
          (key === "unevaluatedProperties" || key === "additionalProperties") && JSON.stringify(value) === '{"not":{}}';
        if (key === "not" && !/(unevaluated|additional)Properties$/.test(at)) misuses.push(`${at}/not`);
        if (!closing) walk(value, `${at}/${key}`);
      }
    };
    for (const document of [analytics, registry]) walk(document, "");
    expect(misuses).toEqual([]);
  });

  it("accept only comma-separated known chains in the screener", () => {
    const pattern = new RegExp(
      requestSchema(op(analytics, "post", "/smartmoney/token-screener")).properties?.chains?.pattern as string,
    );
    expect(pattern.test("solana,base")).toBe(true);
    expect(pattern.test("solana,dogechain")).toBe(false);
    expect(pattern.test("solana,")).toBe(false);
  });
});

describe("data objects", () => {
  it("carry every field the interface names, with its type", () => {
    for (const [path, fields] of Object.entries(DATA_FIELDS)) {
      const data = dataSchema(op(analytics, "post", path));
      for (const [field, type] of Object.entries(fields)) {
        const schema = fieldSchema(analytics, data, field);
        expect(schema, `${path} data.${field}`).toBeDefined();
        expect(
          satisfies(typesOf(analytics, schema as Schema), type),
          `${path} data.${field}: ${typesOf(analytics, schema as Schema)}`,
        ).toBe(true);
      }
    }
  });

  it("close the value sets the interface names", () => {
    for (const [path, enums] of Object.entries(DATA_ENUMS)) {
      const data = dataSchema(op(analytics, "post", path));
      for (const [field, values] of Object.entries(enums)) {
        expect(enumOf(fieldSchema(analytics, data, field)), `${path} data.${field}`).toEqual([...values].sort());
      }
    }
  });

  it("make the verdict the combination of the token, sniper and curve endpoints", () => {
    const verdict = dataSchema(op(analytics, "post", "/trenches/token-verdict"));
    const parts = { token: "/trenches/token", snipers: "/trenches/token-snipers", curve: "/trenches/curve" };
    for (const [part, path] of Object.entries(parts)) {
      expect(schemaAt(analytics, dataSchema(op(analytics, "post", path)), part), part).toEqual(
        schemaAt(analytics, verdict, part),
      );
    }
  });
});

describe("examples", () => {
  it("give every operation of both services a 200 example, and every paid one 206 and 402 examples", () => {
    for (const doc of [analytics, registry]) {
      for (const { path, op: operation } of operations(doc)) {
        // the documents themselves, and the HTML reference page, have no JSON example
        if (path === "/openapi.json" || !operation.responses["200"]?.content?.[JSON_MEDIA]) continue;
        const statuses = operation["x-payment-info"] ? ["200", "206", "402"] : ["200"];
        for (const status of statuses)
          expect(operation.responses[status]?.content?.[JSON_MEDIA]?.example, `${path} ${status}`).toBeDefined();
      }
    }
  });

  it("suggest, in each /ask answer, paid operations under the prefix asked on (following one settles on the same network)", () => {
    const prefixOf = (path: string) =>
      PREFIXES.map((p) => p.prefix)
        .filter((prefix) => path.startsWith(`${prefix}/`))
        .sort((a, b) => b.length - a.length)[0];
    for (const { prefix } of PREFIXES) {
      for (const method of ["post", "get"]) {
        for (const status of ["200", "206"]) {
          const example = op(analytics, method, `${prefix}/ask`).responses[status]?.content?.[JSON_MEDIA]?.example as {
            data: { available_endpoints: string[] };
          };
          const suggested = example.data.available_endpoints;
          expect(suggested.length, `${method} ${prefix}/ask ${status}`).toBeGreaterThan(0);
          for (const path of suggested) {
            expect(prefixOf(path), `${method} ${prefix}/ask ${status} suggests ${path}`).toBe(prefix);
            expect(op(analytics, "post", path)["x-payment-info"], path).toBeDefined();
          }
        }
      }
    }
  });
});

describe("registry", () => {
  it("serves the six read endpoints, GET only, 404 for unknown names", () => {
    for (const { path, named } of REGISTRY_PATHS) {
      expect(Object.keys(registry.paths[path] ?? {}), path).toEqual(["get"]);
      const operation = op(registry, "get", path);
      expect("404" in operation.responses, path).toBe(named);
      expect(operation.responses["200"]?.headers?.ETag?.required, path).toBe(true);
      expect("304" in operation.responses, path).toBe(true);
    }
  });

  it("carries the interface's object fields", () => {
    for (const [model, fields] of Object.entries(REGISTRY_FIELDS)) {
      const schema = resolve(registry, registry.components.schemas[model] as Schema);
      for (const [field, [type, required]] of Object.entries(fields)) {
        expect(satisfies(typesOf(registry, schema.properties?.[field] as Schema), type), `${model}.${field}`).toBe(
          true,
        );
        expect(schema.required?.includes(field) ?? false, `${model}.${field} required`).toBe(required);
      }
    }
    const list = resolve(registry, registry.components.schemas.AgentListItem as Schema);
    expect(enumOf(list.properties?.kind)).toEqual(["byoa"]);
  });

  it("bounds the agent list's limit", () => {
    const limit = parametersOf(registry, op(registry, "get", "/api/agents")).find((p) => p?.name === "limit");
    expect([limit?.schema?.minimum, limit?.schema?.maximum, limit?.schema?.default]).toEqual([1, 100, 20]);
  });

  it("types capability ids as <familyId>:<optionId>", () => {
    const manifest = resolve(registry, registry.components.schemas.Manifest as Schema);
    const capabilities = schemaAt(registry, manifest, "capabilities[]");
    const pattern = new RegExp(capabilities?.pattern as string);
    expect(pattern.test("trading:token-screening")).toBe(true);
    expect(pattern.test("trading")).toBe(false);
  });
});

describe("the 3.0 documents (for Dredd)", () => {
  it("describe the same operations as the 3.1 documents", () => {
    for (const service of ["analytics", "registry"] as const) {
      const ids = (doc: OpenApiDoc) =>
        operations(doc)
          .map(({ method, path, op }) => `${method} ${path} ${op.operationId}`)
          .sort();
      expect(ids(loadDoc("3.0", service))).toEqual(ids(loadDoc("3.1", service)));
    }
  });
});
