// The analytics app's plumbing: challenge, payment gate, envelope, 206, errors, free endpoints.
// Handlers answer the contract's examples here; segment data is tested with the segments.
import { validateAndExtract } from "@x402/extensions/bazaar";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { exampleRequest } from "../../conformance/cases.js";
import { loadDoc, type Operation } from "../../conformance/openapi-doc.js";
import { createResponseValidator } from "../../conformance/schema-validator.js";
import {
  exampleHandlers,
  failingInsightWriter,
  testGate,
  testPayment,
  testPaymentV2,
} from "../../test/support/analytics.js";
import { TEST_NOW } from "../../test/support/segments.js";
import { X402_EXTENSION_URI } from "../a2a/protocol.js";
import { loadAnalyticsConfig } from "../config/analytics.js";
import { ApiError } from "../http/errors.js";
import { MAX_BODY_DEPTH } from "../http/input-guard.js";
import { createLogger } from "../http/logger.js";
import { paidTools } from "../mcp/paid/catalogue.js";
import { type AnalyticsDeps, createAnalyticsApp } from "./app.js";
import { createCache } from "./cache/memory-cache.js";
import { manualClock } from "./clock.js";
import { loadAnalyticsContract } from "./contract/analytics-contract.js";
import { embeddedInsightWriter } from "./insight/embedded.js";
import type { SettlementBackend } from "./payments/settlement/settlement.js";
import { createEmbeddedProviders } from "./providers/index.js";
import { askHandlers } from "./segments/ask.js";
import { defiHandlers } from "./segments/defi.js";
import { createSegmentContext } from "./segments/derived.js";

const contract = loadAnalyticsContract();
const config = loadAnalyticsConfig({}, contract.developmentDefaults);
const doc = loadDoc("3.1", "analytics");
const independent = createResponseValidator(doc);
const allEmbedded = {
  tvl: "embedded",
  pools: "embedded",
  launches: "embedded",
  chain_rpc: "embedded",
  wallet_labels: "embedded",
  swap_bridge: "embedded",
} as const;

function build(overrides: Partial<AnalyticsDeps> = {}, backend?: SettlementBackend) {
  const clock = manualClock(TEST_NOW);
  const { gate, ledger, tasks } = testGate(clock, { backend });
  const deps: AnalyticsDeps = {
    contract,
    config,
    handlers: { ...exampleHandlers(contract), ...defiHandlers, ...askHandlers },
    segment: createSegmentContext({
      providers: createEmbeddedProviders({ seed: "app-test", clock }),
      clock,
      cache: createCache(clock),
    }),
    providerModes: allEmbedded,
    settlementMode: "ledger",
    insight: embeddedInsightWriter,
    gate,
    ledger,
    tasks,
    clock,
    logger: createLogger("silent"),
    ...overrides,
  };
  const statuses = async () => (await ledger.rows()).map((row) => row.status);
  return { app: createAnalyticsApp(deps), ledger, statuses, clock, deps };
}

const { app } = build();
/** The size docs/deployment.md tells operators the v2 challenge header stays under. */
const MAX_CHALLENGE_HEADER = 8 * 1024;
const PREFIX_NETWORK = { "": "solana-devnet", "/base": "base-sepolia", "/skale": "skale-base-sepolia" } as const;
const decode = (header: string) => JSON.parse(Buffer.from(header, "base64").toString("utf8"));

describe("the 402 challenge", () => {
  it("answers every paid route without X-PAYMENT with the x402 v1 body of its prefix's network", async () => {
    // the independent validator judges the bodies; the app's own response validation would only add compile time
    const { app } = build({ config: { ...config, validateResponses: false } });
    for (const route of contract.paid) {
      // the operation's example request; the full URL paid for includes a legacy GET's query string
      const sent = exampleRequest(doc, route.method, route.path, doc.paths[route.path]?.[route.method] as Operation);
      const target = sent.path;
      const res =
        sent.method === "POST"
          ? await request(app)
              .post(target)
              .send(sent.body as object)
          : await request(app).get(target);
      expect(res.status, `${route.method} ${target}`).toBe(402);
      expect(independent.validate(route.method, route.path, 402, res.body), route.operationId).toEqual([]);
      // what a proxy must pass as a response header (docs/deployment.md, Behind a proxy)
      expect(String(res.headers["payment-required"]).length, route.operationId).toBeLessThan(MAX_CHALLENGE_HEADER);
      const [accept] = res.body.accepts;
      const example = doc.paths[route.path]?.[route.method]?.responses["402"]?.content?.["application/json"]
        ?.example as {
        accepts: Record<string, unknown>[];
      };
      expect(res.body.error).toBe("X-PAYMENT header is required");
      expect(res.body.accepts).toHaveLength(1);
      expect(accept.network).toBe(PREFIX_NETWORK[route.payment.network.prefix as keyof typeof PREFIX_NETWORK]);
      expect(accept.maxAmountRequired).toBe(route.payment.maxAmountRequired);
      expect(accept.resource).toMatch(
        new RegExp(`^http://127\\.0\\.0\\.1:\\d+${target.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`),
      );
      for (const field of [
        "network",
        "maxAmountRequired",
        "payTo",
        "asset",
        "extra",
        "mimeType",
        "maxTimeoutSeconds",
        "description",
        "scheme",
      ]) {
        expect(accept[field], `${route.operationId} ${field}`).toEqual(example.accepts[0]?.[field]);
      }
      expect(accept.outputSchema.input.method).toBe(route.method.toUpperCase());
      // self-contained: a client reading the 402 alone can resolve every schema in it
      expect(JSON.stringify(accept.outputSchema), route.operationId).not.toContain("$ref");
    }
  });
});

/** A legacy GET's query parameters, from their examples in the contract. */
describe("a paid call", () => {
  it("is verified, served, settled, and returns the receipt", async () => {
    const { app, ledger } = build();
    const res = await request(app).post("/base/defi/tvl").set("X-PAYMENT", testPayment()).send({ limit: 3 });
    expect(res.status).toBe(200);
    expect(independent.validate("post", "/base/defi/tvl", 200, res.body)).toEqual([]);
    expect(res.body.data.chains).toHaveLength(3);
    expect(res.body.model_used).toBe("embedded-insight-v1");
    expect(res.body.timestamp).toBe(new Date(TEST_NOW).toISOString());
    const receipt = decode(res.headers["x-payment-response"] as string);
    expect(receipt).toMatchObject({
      success: true,
      network: "base-sepolia",
      payer: "TestPayer1111111111111111111111111111111111",
    });
    const [row] = await ledger.rows();
    expect(row).toMatchObject({ status: "settled", amount: 1000n, hasAnswer: true });
  });

  it("serves the same data on every prefix and through the legacy GET", async () => {
    const bodies = await Promise.all(
      ["/defi/tvl", "/base/defi/tvl", "/skale/defi/tvl"].map((path) =>
        request(app).post(path).set("X-PAYMENT", testPayment()).send({ chain: "all", limit: 4 }),
      ),
    );
    const legacy = await request(app).get("/skale/defi/tvl?chain=all&limit=4").set("X-PAYMENT", testPayment());
    expect(legacy.status).toBe(200);
    for (const res of [...bodies, legacy]) expect(res.body.data).toEqual(bodies[0]?.body.data);
  });

  it("names other endpoints under the prefix asked on, whose network they settle on", async () => {
    const query = "Where can I earn the best yield on SOL right now?";
    for (const prefix of ["", "/base", "/skale"]) {
      const res = await request(app).post(`${prefix}/ask`).set("X-PAYMENT", testPayment()).send({ query });
      expect(res.status).toBe(200);
      expect(res.body.data.available_endpoints[0]).toBe(`${prefix}/defi/yields`);
    }
  });

  it("gives a legacy GET the body's defaults for the fields it does not carry", async () => {
    const tvl = await request(app).get("/defi/tvl").set("X-PAYMENT", testPayment());
    expect(tvl.status).toBe(200);
    expect(tvl.body.data.filter).toEqual({ chain: "all", protocol: null });
    expect(tvl.body.data.chains).toHaveLength(20);
  });

  it("applies the contract's defaults to a POST without a body", async () => {
    const res = await request(app).post("/defi/tvl").set("X-PAYMENT", testPayment());
    expect(res.status).toBe(200);
    expect(res.body.data.filter).toEqual({ chain: "all", protocol: null });
    expect(res.body.data.chains).toHaveLength(20);
  });

  it("answers a repeat of the same request with its answer, and refuses the payment for another request", async () => {
    const header = testPayment();
    expect((await request(app).post("/defi/tvl").set("X-PAYMENT", header).send({})).status).toBe(200);
    const replay = await request(app).post("/defi/tvl").set("X-PAYMENT", header).send({});
    expect(replay.status).toBe(200);
    const other = await request(app).post("/defi/tvl").set("X-PAYMENT", header).send({ limit: 2 });
    expect(other.status).toBe(402);
    expect(other.body.error).toBe("duplicate_settlement");
    expect(other.body.accepts).toHaveLength(1);
  });

  it("answers a header that is not base64 JSON with a 400 naming X-PAYMENT", async () => {
    const res = await request(app).post("/defi/tvl").set("X-PAYMENT", "%%% not a payment %%%").send({});
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_payload", errors: [{ location: "header", field: "X-PAYMENT" }] });
  });
});

describe("when the model fails", () => {
  it("answers 206 with the raw data and the rule engine's signal, and still settles", async () => {
    const { app, statuses } = build({ insight: failingInsightWriter });
    const res = await request(app).post("/defi/yields").set("X-PAYMENT", testPayment()).send({ limit: 5 });
    expect(res.status).toBe(206);
    expect(independent.validate("post", "/defi/yields", 206, res.body)).toEqual([]);
    expect(res.body.insight).toBeNull();
    expect(res.body.model_used).toBeNull();
    expect(res.body.data.pools).toHaveLength(5);
    expect(["high_yield", "medium_yield", "low_yield", "risky"]).toContain(res.body.signal);
    expect(res.headers["x-payment-response"]).toBeDefined();
    expect(await statuses()).toEqual(["settled"]);
  });
});

describe("no charge for an answer not delivered", () => {
  it("releases the payment when the handler answers 404", async () => {
    const { app, statuses } = build();
    const res = await request(app)
      .post("/defi/tvl")
      .set("X-PAYMENT", testPayment())
      .send({ protocol: "no-such-protocol" });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("not_found");
    expect(res.headers["x-payment-response"]).toBeUndefined();
    expect(await statuses()).toEqual(["not_charged"]);
  });

  it("releases the payment on an upstream failure (502) and on a server fault (500, no internals)", async () => {
    const failing = (error: Error) =>
      build({ handlers: { ...exampleHandlers(contract), defiTvl: async () => Promise.reject(error) } });
    const upstream = failing(new ApiError(502, "upstream_error", "defillama timed out", { provider: "defillama" }));
    const res502 = await request(upstream.app).post("/defi/tvl").set("X-PAYMENT", testPayment()).send({});
    expect(res502.status).toBe(502);
    expect(res502.body).toMatchObject({ error: "upstream_error", provider: "defillama" });
    expect(await upstream.statuses()).toEqual(["not_charged"]);

    const bug = failing(new TypeError("cannot read secret of undefined"));
    const res500 = await request(bug.app).post("/defi/tvl").set("X-PAYMENT", testPayment()).send({});
    expect(res500.status).toBe(500);
    expect(res500.body.error).toBe("internal_error");
    expect(JSON.stringify(res500.body)).not.toMatch(/secret/);
    expect(await bug.statuses()).toEqual(["not_charged"]);
  });

  it("releases the payment when the envelope breaks the contract, before settling", async () => {
    const broken = build({
      handlers: {
        ...exampleHandlers(contract),
        defiTvl: (async () => ({
          data: { chains: "oops" },
          sources: ["x"],
          baseline: { signal: "moon", confidence: 2 },
          brief: "b",
        })) as never,
      },
    });
    const res = await request(broken.app).post("/defi/tvl").set("X-PAYMENT", testPayment()).send({});
    expect(res.status).toBe(500);
    expect(res.headers["x-payment-response"]).toBeUndefined();
    expect(await broken.statuses()).toEqual(["not_charged"]);
  });

  it("answers the settlement's failure reason as a 402, without the data", async () => {
    const refusing: SettlementBackend = {
      mode: "ledger",
      timeoutMs: 0,
      settle: async () => ({ ok: false, reason: "insufficient_funds", message: "payer balance is below the amount" }),
    };
    const { app, statuses } = build({}, refusing);
    const res = await request(app).post("/defi/tvl").set("X-PAYMENT", testPayment()).send({});
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ x402Version: 1, error: "insufficient_funds" });
    expect(res.body.data).toBeUndefined();
    expect(res.headers["x-payment-response"]).toBeUndefined();
    expect(await statuses()).toEqual(["failed"]);

    // in v2, beside the 402, the transport's report of the failed settlement: not a receipt, no transaction
    const challenge = await request(app).post("/base/defi/tvl").send({});
    const [accepted] = decode(String(challenge.headers["payment-required"])).accepts;
    const payer = "0x00000000000000000000000000000000000000bb";
    const v2 = await request(app)
      .post("/base/defi/tvl")
      .set("PAYMENT-SIGNATURE", testPaymentV2(accepted, payer, "n-v2"))
      .send({});
    expect(v2.status).toBe(402);
    expect(decode(String(v2.headers["payment-required"])).error).toBe("insufficient_funds");
    expect(decode(String(v2.headers["payment-response"]))).toEqual({
      success: false,
      errorReason: "insufficient_funds",
      transaction: "",
      network: "eip155:84532",
      payer,
    });
    expect(v2.body.data).toBeUndefined();
    expect(await statuses()).toEqual(["failed", "failed"]);
  });
});

describe("bad input", () => {
  const cases: [string, () => request.Test, string][] = [
    ["a limit above the maximum", () => request(app).post("/defi/tvl").send({ limit: 51 }), "limit"],
    ["an unknown enum value", () => request(app).post("/lp/pools").send({ sort: "hype" }), "sort"],
    ["a wrong type", () => request(app).post("/defi/yields").send({ min_apy: "lots" }), "min_apy"],
    ["a missing required field", () => request(app).post("/lp/pool-detail").send({}), "address"],
    ["an invalid address", () => request(app).post("/trenches/token-verdict").send({ mint: "not-a-mint!" }), "mint"],
    ["a legacy query above the maximum", () => request(app).get("/base/trenches/new-tokens?limit=101"), "limit"],
    ["a legacy query number in hexadecimal", () => request(app).get("/base/trenches/new-tokens?limit=0x10"), "limit"],
    ["a legacy query number with spaces", () => request(app).get("/base/trenches/new-tokens?limit=%2010%20"), "limit"],
    ["an unknown query parameter", () => request(app).get("/defi/tvl?color=blue"), "color"],
    ["an unknown venue", () => request(app).get("/lp/uniswap/pools"), "venue"],
  ];
  for (const [what, send, field] of cases) {
    it(`answers ${what} with a 400 naming the field, before any payment`, async () => {
      const res = await send().set("X-PAYMENT", testPayment());
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_request");
      expect(res.body.errors.map((e: { field: string }) => e.field).join(" ")).toContain(field);
      expect(res.body.request_id).toBe(res.headers["x-request-id"]);
    });
  }

  /** Paid, a 400 naming its fields; unpaid, the challenge naming the same fields (an indexer's probe gets its 402). */
  async function refusedWhenPaid(send: () => request.Test): Promise<request.Response> {
    const paid = await send().set("X-PAYMENT", testPayment());
    expect(paid.status, paid.text).toBe(400);
    const unpaid = await send();
    expect(unpaid.status, unpaid.text).toBe(402);
    expect(unpaid.body.errors).toEqual(paid.body.errors);
    return paid;
  }

  it("answers malformed JSON and a non-JSON content type with a 400 once paid, naming them in the 402 before", async () => {
    const bad = await refusedWhenPaid(() =>
      request(app).post("/defi/tvl").set("Content-Type", "application/json").send("{not json"),
    );
    expect(bad.body.errors[0]).toMatchObject({ location: "body" });
    const text = await refusedWhenPaid(() =>
      request(app).post("/defi/tvl").set("Content-Type", "text/plain").send("chain=all"),
    );
    expect(text.body.errors[0]).toMatchObject({ field: "content-type" });
  });

  it("answers a body nested deeper than the limit with a 400 naming its field once paid, and on /mcp", async () => {
    const deep = `{"limit":5,"junk":${"[".repeat(4000)}${"]".repeat(4000)}}`;
    const post = (path: string) => request(app).post(path).set("Content-Type", "application/json");
    for (const res of [await refusedWhenPaid(() => post("/base/defi/tvl").send(deep)), await post("/mcp").send(deep)]) {
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        { location: "body", field: "junk", message: `nests deeper than ${MAX_BODY_DEPTH} levels` },
      ]);
    }
    // at the limit the body reaches the validator, which refuses the field itself (the body is closed)
    const junkError = async (body: string) => (await post("/base/defi/tvl").send(body)).body.errors?.[0]?.message;
    const deepest = `{"junk":${"[".repeat(MAX_BODY_DEPTH - 1)}${"]".repeat(MAX_BODY_DEPTH - 1)}}`;
    expect(await junkError(deepest)).toBe("is not a field of this request");
    const over = `{"junk":${"[".repeat(MAX_BODY_DEPTH)}${"]".repeat(MAX_BODY_DEPTH)}}`;
    expect(await junkError(over)).toBe(`nests deeper than ${MAX_BODY_DEPTH} levels`);
  });

  it("names the header at fault when the body cannot be decoded, and says when JSON is not an object", async () => {
    const post = () => request(app).post("/defi/tvl");
    const cases: [() => request.Test, { field: string; message: string }][] = [
      [
        () => post().set("Content-Type", "application/json").set("Content-Encoding", "xyz").send("{}"),
        {
          field: "content-encoding",
          message: "must be gzip, deflate, br or identity",
        },
      ],
      [
        () => post().set("Content-Type", "application/json").set("Content-Encoding", "gzip").send("{}"),
        {
          field: "content-encoding",
          message: "does not match the body, which could not be decompressed",
        },
      ],
      [
        () => post().set("Content-Type", "application/json; charset=latin1").send("{}"),
        { field: "content-type", message: "charset must be utf-8" },
      ],
      [
        () => post().set("Content-Type", "application/json").send("null"),
        { field: "body", message: "must be a JSON object" },
      ],
      [
        () => post().set("Content-Type", "application/json").send("5"),
        { field: "body", message: "must be a JSON object" },
      ],
    ];
    for (const [send, error] of cases) {
      const res = await refusedWhenPaid(send);
      expect(res.body.errors).toEqual([expect.objectContaining(error)]);
    }
  });

  it("checks the rules of an input beyond its schema before the payment, naming the field", async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ["/base/smartmoney/token-screener", { market_cap_min: 10, market_cap_max: 5 }, "market_cap_max"],
      [
        "/base/smartmoney/wallet-intel",
        { chain: "ethereum", address: "5rCf1DM8LjKTw4YqhnoLcngyZYeNnQqztScTogYHAS6" },
        "address",
      ],
      [
        "/smartmoney/flow-intel",
        { chain: "solana", token_address: "0x4200000000000000000000000000000000000006" },
        "token_address",
      ],
      [
        "/skale/bridge/quote",
        {
          from_chain: "solana",
          to_chain: "base",
          from_token: "USDC",
          to_token: "USDC",
          amount: 10,
          from_address: "0x4200000000000000000000000000000000000006",
        },
        "from_address",
      ],
    ];
    const { app: fresh, statuses } = build();
    for (const [path, body, field] of cases) {
      const res = await request(fresh).post(path).set("X-PAYMENT", testPayment()).send(body);
      expect(res.status, path).toBe(400);
      expect(res.body.errors, path).toEqual([expect.objectContaining({ location: "body", field })]);
    }
    // refused before the payment was looked at: not even reserved
    expect(await statuses()).toEqual([]);
  });

  it("names a legacy GET's field where it came from, the query, when the handler refuses it", async () => {
    const { app, statuses } = build();
    const res = await request(app).get("/base/defi/tvl?chain=Nowhere").set("X-PAYMENT", testPayment());
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ location: "query", field: "chain" })]);
    expect(await statuses()).toEqual(["not_charged"]);
  });

  it("takes a query number in any decimal spelling, and only those", async () => {
    for (const minApy of [".5", "5.", "0.5", "5e-1", "12"])
      expect((await request(app).get(`/defi/yields?min_apy=${minApy}`)).status, minApy).toBe(402);
    for (const minApy of ["0x1", "0b1", "%205", "1_0"]) {
      const res = await refusedWhenPaid(() => request(app).get(`/defi/yields?min_apy=${minApy}`));
      expect(res.body.errors[0], minApy).toMatchObject({ location: "query", field: "min_apy" });
    }
  });

  it("answers unknown paths with a JSON 404 and wrong methods with a 405 and Allow", async () => {
    const missing = await request(app).post("/defi/nothing").send({});
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe("not_found");
    const put = await request(app).put("/defi/tvl").send({});
    expect(put.status).toBe(405);
    expect(put.headers.allow).toMatch(/POST/);
  });
});

describe("free endpoints", () => {
  it("ignore a query string when they take no query parameter (a monitor's cache-buster), as their documents declare", async () => {
    for (const path of ["/", "/livez", "/readyz", "/.well-known/x402"]) {
      expect((await request(app).get(`${path}?_=1700000000`)).status, path).toBe(200);
      expect((await request(app).head(`${path}?_=1700000000`)).status, `HEAD ${path}`).toBe(200);
    }
    expect((await request(app).get("/openapi.json?netwrk=base")).status).toBe(400);
  });

  it("answer HEAD as their GET without a body; a paid route never does (it could not deliver what it would charge for)", async () => {
    const { app, statuses } = build();
    for (const route of contract.free.filter((r) => !r.path.includes("{"))) {
      const [get, head] = [await request(app).get(route.path), await request(app).head(route.path)];
      expect(head.status, route.path).toBe(get.status);
      expect(head.headers["content-type"], route.path).toBe(get.headers["content-type"]);
      expect(head.text ?? "", route.path).toBe("");
    }
    for (const path of ["/base/defi/tvl?chain=all", "/defi/yields"]) {
      const res = await request(app).head(path).set("X-PAYMENT", testPayment());
      expect(res.status, path).toBe(405);
      expect(res.headers.allow, path).not.toContain("HEAD");
    }
    expect(await statuses()).toEqual([]);
  });

  it("ignore the charset of a GET, which has no body to decode", async () => {
    const res = await request(app).get("/livez").set("Content-Type", "text/plain; charset=ISO-8859-1");
    expect(res.status).toBe(200);
  });

  it("report service info: networks per prefix, 28 endpoints, provider modes", async () => {
    const res = await request(app).get("/");
    expect(res.status).toBe(200);
    expect(independent.validate("get", "/", 200, res.body)).toEqual([]);
    expect(res.body.endpoints).toBe(28);
    expect(res.body.networks.map((n: { prefix: string; network: string }) => [n.prefix, n.network])).toEqual([
      ["", "solana-devnet"],
      ["/base", "base-sepolia"],
      ["/skale", "skale-base-sepolia"],
    ]);
  });

  it("list each paid operation with its price and its path under each prefix", async () => {
    const res = await request(app).get("/");
    expect(res.body.operations.map((o: { name: string }) => o.name)).toEqual(contract.operations);
    for (const operation of res.body.operations) {
      const routes = contract.paid.filter((route) => route.name === operation.name);
      expect(operation.price_micro_usdc, operation.name).toBe(routes[0]?.payment.maxAmountRequired);
      expect(operation.price_usd, operation.name).toBe(routes[0]?.payment.price.amount);
      expect(
        operation.routes.map((r: { method: string; path: string }) => `${r.method} ${r.path}`).sort(),
        operation.name,
      ).toEqual(routes.map((route) => `${route.method.toUpperCase()} ${route.path}`).sort());
    }
    const tvl = res.body.operations.find((o: { name: string }) => o.name === "defiTvl");
    expect(tvl.routes.slice(0, 3)).toEqual([
      { prefix: "", network: "solana-devnet", method: "POST", path: "/defi/tvl" },
      { prefix: "/base", network: "base-sepolia", method: "POST", path: "/base/defi/tvl" },
      { prefix: "/skale", network: "skale-base-sepolia", method: "POST", path: "/skale/defi/tvl" },
    ]);
  });

  it("serve one network's document: its prefix's paid operations and lookups and the free ones, as generated", async () => {
    for (const [network, prefix] of [
      ["solana", ""],
      ["base", "/base"],
      ["skale", "/skale"],
    ] as const) {
      const res = await request(app).get(`/openapi.json?network=${network}`);
      expect(res.status).toBe(200);
      const operations = Object.values(
        res.body.paths as Record<
          string,
          Record<
            string,
            { operationId: string; "x-payment-info"?: { network: { prefix: string }; deployment?: unknown } }
          >
        >,
      ).flatMap((item) => Object.values(item));
      const paid = operations.filter((op) => op["x-payment-info"]);
      expect(paid.length, network).toBe(
        contract.paid.filter((route) => route.payment.network.prefix === prefix).length,
      );
      expect(
        paid.every((op) => op["x-payment-info"]?.network.prefix === prefix && op["x-payment-info"]?.deployment),
      ).toBe(true);
      // the free ones, of the payment lookups only the prefix's own
      const freeHere = contract.free.filter(
        ({ operationId }) =>
          !operationId.includes("_paymentStatus") || operationId.toLowerCase().startsWith(`${network}_`),
      );
      expect(operations.filter((op) => !op["x-payment-info"]).length).toBe(freeHere.length);
      expect(res.body.servers[0].url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const { servers: _served, ...rest } = res.body;
      const { servers: _generated, ...generated } = loadDoc("3.1", `analytics-${network}`);
      for (const op of paid) delete op["x-payment-info"]?.deployment;
      expect(rest).toEqual(generated);
    }
    const bad = await request(app).get("/openapi.json?network=ethereum");
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ location: "query", field: "network" });
  });

  it("serve the API reference page of the whole document or of one network, and its script", async () => {
    const page = await request(app).get("/docs");
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.text).toContain('"url":"/openapi.json"');
    expect((await request(app).get("/docs?network=skale")).text).toContain('"url":"/openapi.json?network=skale"');
    const script = await request(app).get("/docs/assets/standalone.js");
    expect(script.status).toBe(200);
    expect(script.headers["content-type"]).toMatch(/javascript/);
  });

  it("serve the OpenAPI document with the caller's origin and this deployment's payment details", async () => {
    const res = await request(app).get("/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    expect(res.body.servers[0].url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(res.body.paths["/base/defi/tvl"].post["x-payment-info"].deployment).toMatchObject({
      network: "base-sepolia",
      caip2: "eip155:84532",
      payTo: config.payTo.evm,
    });
    expect(res.body.paths["/defi/tvl"].post["x-payment-info"].deployment.feePayer).toBe(config.feePayer);
  });

  it("list every paid endpoint as an agent-card skill with its price", async () => {
    const res = await request(app).get("/.well-known/agent-card.json");
    expect(independent.validate("get", "/.well-known/agent-card.json", 200, res.body)).toEqual([]);
    expect(res.body.skills).toHaveLength(28);
    expect(res.body.x402Versions).toEqual([1, 2]);
    expect(res.body.networks.map((n: { caip2: string }) => n.caip2)).toEqual([
      "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
      "eip155:84532",
      "eip155:324705682",
    ]);
    expect(res.body.skills.find((s: { id: string }) => s.id === "smartmoneyWalletIntel")).toMatchObject({
      price_usd: "0.050",
      price_micro_usdc: "50000",
    });
  });

  it("serve an A2A v1.0 agent card: the JSON-RPC endpoint, the x402 extension, the ERC-8004 services", async () => {
    const { body } = await request(app).get("/.well-known/agent-card.json");
    const origin = body.provider.url as string;
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(body.supportedInterfaces).toEqual([
      { url: `${origin}/a2a`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
    ]);
    // the 0.3 card's top-level fields would make an A2A v1.0 client read it as a 0.3 card
    for (const field of ["url", "protocolVersion", "preferredTransport"]) expect(body).not.toHaveProperty(field);
    expect(body.capabilities.extensions).toEqual([
      expect.objectContaining({
        uri: X402_EXTENSION_URI,
        required: true,
        params: { x402Versions: [2], networks: body.networks.map((n: { caip2: string }) => n.caip2) },
      }),
    ]);
    expect(body.skills.map((s: { id: string }) => s.id)).toEqual([...paidTools(contract, config).keys()]);
    const tvl = body.skills.find((s: { id: string }) => s.id === "defiTvl");
    expect(JSON.parse(tvl.examples[0])).toEqual({ skill: "defiTvl", arguments: { chain: "all", limit: 3 } });
    expect(tvl.description).toContain("Signal: high_yield|medium_yield|low_yield|risky. 0.001 USD per call");
    expect(body.services).toEqual([
      { name: "A2A", endpoint: `${origin}/.well-known/agent-card.json`, version: "1.0" },
      { name: "MCP", endpoint: `${origin}/mcp`, version: "2026-07-28" },
      { name: "web", endpoint: origin },
    ]);
    expect(body).toMatchObject({ active: true, documentationUrl: `${origin}/docs`, securityRequirements: [] });
  });

  it("list every concrete paid resource with its payment requirements in the x402 discovery", async () => {
    const res = await request(app).get("/.well-known/x402");
    expect(independent.validate("get", "/.well-known/x402", 200, res.body)).toEqual([]);
    // the same concrete routes as the items: a prober calling one as written reaches its 402, never a template's 400
    expect(res.body.resources).toEqual(
      res.body.items.map((i: { method: string; resource: string }) => `${i.method} ${new URL(i.resource).pathname}`),
    );
    expect(res.body.resources.filter((r: string) => r.includes("{"))).toEqual([]);
    // every GET listed answers its 402 when called as written (no id, no required query missing)
    for (const { method, resource } of res.body.items as { method: string; resource: string }[])
      if (method === "GET") expect((await request(app).get(new URL(resource).pathname)).status, resource).toBe(402);
    const item = res.body.items.find((i: { resource: string }) => i.resource.endsWith("/skale/lp/meteora/pools"));
    expect(item.accepts[0]).toMatchObject({ network: "skale-base-sepolia", maxAmountRequired: "1000" });
    // the v2 challenge beside it: what PAYMENT-REQUIRED says on a 402 of the same URL
    expect(item.paymentRequired).toMatchObject({
      x402Version: 2,
      resource: { url: item.resource },
      accepts: [
        { network: "eip155:324705682", amount: "1000", payTo: item.accepts[0].payTo, asset: item.accepts[0].asset },
      ],
    });
    const challenge = await request(app).get("/skale/lp/meteora/pools").set("Host", new URL(item.resource).host);
    expect(challenge.status).toBe(402);
    // but for the offers a challenge signs as it is issued (valid from then)
    const {
      extensions: { "offer-receipt": offers, ...extensions },
      ...challenged
    } = JSON.parse(Buffer.from(String(challenge.headers["payment-required"]), "base64").toString());
    expect(offers.info.offers).toHaveLength(1);
    expect({ ...challenged, extensions }).toEqual(item.paymentRequired);
  });

  it("describe a route with path segments by its template, with the values of the URL at hand", async () => {
    const pool = "5rCf1DM8LjKTw4YqhnoLcngyZYeNnQqztScTogYHAS6";
    const challenge = await request(app).get(`/base/lp/meteora/pools/${pool}`);
    expect(challenge.status).toBe(402);
    const { bazaar } = decode(String(challenge.headers["payment-required"])).extensions;
    expect(bazaar.routeTemplate).toBe("/base/lp/:venue/pools/:address");
    expect(bazaar.info.input.pathParams).toEqual({ venue: "meteora", address: pool });
  });

  it("keep the contract's path examples when the input breaks the contract, valid under the extension's schema", async () => {
    const challenge = await request(app).get("/base/lp/uniswap/pools");
    expect(challenge.status).toBe(402);
    expect(challenge.body.errors).toEqual([expect.objectContaining({ location: "path", field: "venue" })]);
    const { bazaar } = decode(String(challenge.headers["payment-required"])).extensions;
    expect(bazaar.info.input.pathParams).toEqual({ venue: "meteora" });
    expect(validateAndExtract(bazaar).errors ?? []).toEqual([]);
    // a repeated query field stops the check before the path's values are judged: none of them is described
    const repeated = await request(app).get("/base/lp/%20/pools?limit=1&limit=2");
    expect(repeated.status).toBe(402);
    const described = decode(String(repeated.headers["payment-required"])).extensions.bazaar;
    expect(described.info.input.pathParams).toEqual({ venue: "meteora" });
  });
});

describe("HTTP hygiene", () => {
  it("answers CORS preflights allowing both payment headers, and exposes the challenge and both receipt headers", async () => {
    const res = await request(app)
      .options("/base/defi/tvl")
      .set("Origin", "https://app.example")
      .set("Access-Control-Request-Headers", "payment-signature, x-payment, access-control-expose-headers");
    expect(res.status).toBe(204);
    const allowed = String(res.headers["access-control-allow-headers"]).split(/,\s*/);
    // The last one is what the official clients add to their paid retry (test/browser/paying-page.test.ts pays in Chromium).
    expect(allowed).toEqual(
      expect.arrayContaining(["PAYMENT-SIGNATURE", "X-PAYMENT", "Access-Control-Expose-Headers"]),
    );
    const paid = await request(app).post("/base/defi/tvl").set("X-PAYMENT", testPayment()).send({});
    const exposed = String(paid.headers["access-control-expose-headers"]).split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(["PAYMENT-REQUIRED", "PAYMENT-RESPONSE", "X-PAYMENT-RESPONSE"]));
  });

  it("echoes a caller's request id and makes one up otherwise", async () => {
    expect((await request(app).get("/").set("X-Request-Id", "trace-42")).headers["x-request-id"]).toBe("trace-42");
    expect((await request(app).get("/")).headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("the /docs assets", () => {
  it("answer another method, a file outside the folder and a bad path with the JSON errors, and ignore Range", async () => {
    const post = await request(app).post("/docs/assets/standalone.js");
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe("GET, HEAD");
    expect(post.body.error).toBe("method_not_allowed");
    const outside = await request(app).get("/docs/assets/%2e%2e/%2e%2e/package.json");
    expect(outside.status).toBe(404);
    expect(outside.body.error).toBe("not_found");
    const undecodable = await request(app).get("/docs/assets/%zz");
    expect(undecodable.status).toBe(400);
    expect(undecodable.body.errors[0]).toMatchObject({ location: "path", field: "/docs/assets/%zz" });
    const ranged = await request(app).get("/docs/assets/standalone.js").set("Range", "bytes=999999999-");
    expect(ranged.status).toBe(200);
  });
});

describe("paths that cannot be decoded", () => {
  it("answer a 400 naming the path, not a 500", async () => {
    const res = await request(app).get("/traders/wallet/%E0%A4%A/intel").set("X-PAYMENT", testPayment());
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ location: "path", field: "/traders/wallet/%E0%A4%A/intel" });
  });
});
