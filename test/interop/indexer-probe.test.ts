// Every paid route as x402's Bazaar indexer meets it: the method its declaration names, no payment, an empty body
// (and `{}`, and a body that is not JSON). Each answer must be a 402 whose v2 `PAYMENT-REQUIRED` decodes and whose
// Bazaar extension passes @x402/extensions' own validators (validateAndExtract, validateDiscoveryExtensionSpec), as a
// facilitator cataloguing it runs them; input that breaks the contract is named in the body, and the same request
// paid is a 400 with nothing reserved or settled.
import { validateAndExtract, validateDiscoveryExtensionSpec } from "@x402/extensions/bazaar";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { testPaymentV2 } from "../support/analytics.js";
import { buildPaidApp, contract, decodeHeader } from "../support/paid-app.js";

const { app, statuses } = buildPaidApp();
const posts = contract.paid.filter((route) => route.method === "post");
const gets = contract.paid.filter((route) => route.method === "get");

/** A route's URL with each path parameter at its documented example. */
function urlOf(route: (typeof contract.paid)[number]): string {
  const operation = contract.document.paths[route.path]?.[route.method] as {
    parameters?: { in?: string; name?: string; example?: unknown; $ref?: string }[];
  };
  const examples = new Map(
    (operation.parameters ?? []).flatMap((p) => (p.in === "path" ? [[p.name, String(p.example)]] : [])),
  );
  return route.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(examples.get(name) ?? "x"));
}

function expectCatalogued(res: request.Response, method: "GET" | "POST") {
  expect(res.status, res.text).toBe(402);
  const required = decodeHeader(res.headers["payment-required"]);
  expect(required.x402Version).toBe(2);
  expect(required.accepts.length).toBeGreaterThan(0);
  const bazaar = required.extensions?.bazaar;
  expect(validateDiscoveryExtensionSpec(bazaar)).toEqual({ valid: true });
  const extracted = validateAndExtract(bazaar);
  expect(extracted.errors ?? [], JSON.stringify(extracted.errors)).toEqual([]);
  expect(extracted.valid).toBe(true);
  expect(extracted.info?.input).toMatchObject({ type: "http", method });
  return required;
}

describe("the indexer's probe of every paid POST, on every prefix", () => {
  it("covers 28 operations on three prefixes", () => expect(posts).toHaveLength(84));

  for (const route of posts)
    it(`POST ${route.path}: no body, {} and a body that is not JSON each get a catalogable 402`, async () => {
      const url = urlOf(route);
      expectCatalogued(await request(app).post(url), "POST");
      const empty = await request(app).post(url).send({});
      expectCatalogued(empty, "POST");
      const broken = await request(app).post(url).set("content-type", "application/json").send("{not json");
      expectCatalogued(broken, "POST");
      expect(broken.body.errors).toEqual([{ location: "body", field: "body", message: "is not valid JSON" }]);
    });
});

describe("the indexer's probe of every legacy GET", () => {
  for (const route of gets)
    it(`GET ${route.path}: without its query fields, a catalogable 402`, async () => {
      expectCatalogued(await request(app).get(urlOf(route)), "GET");
    });
});

describe("input that breaks the contract, without and with payment", () => {
  it("is named in the 402 of an unpaid request, and is a 400 with nothing reserved once paid", async () => {
    const unpaid = await request(app).post("/base/lp/pool-detail").send({});
    expect(unpaid.status).toBe(402);
    expect(unpaid.body.errors).toEqual([expect.objectContaining({ location: "body", field: expect.any(String) })]);
    expect(unpaid.body.message).toMatch(/^Fix .* before paying/);
    const required = decodeHeader(unpaid.headers["payment-required"]);
    const paid = await request(app)
      .post("/base/lp/pool-detail")
      .set("PAYMENT-SIGNATURE", testPaymentV2(required.accepts[0]))
      .send({});
    expect(paid.status).toBe(400);
    expect(paid.body.errors).toEqual(unpaid.body.errors);
    expect(paid.headers["payment-response"]).toBeUndefined();
    expect(await statuses()).toEqual([]);
  });
});
