// The breaking-change diff (scripts/breaking-changes.mjs) on small documents.
import { describe, expect, it } from "vitest";
import { breakingChanges, judge } from "../scripts/breaking-changes.mjs";

interface S {
  type?: string;
  $ref?: string;
  enum?: string[];
  maximum?: number;
  required?: string[];
  properties?: Record<string, S>;
  items?: S;
  unevaluatedProperties?: unknown;
  additionalProperties?: unknown;
}
interface Op {
  parameters?: { name: string; in: string; required: boolean; schema: S }[];
  requestBody?: { required: boolean; content: Record<string, { schema: S }> };
  responses: Record<string, { content: Record<string, { schema: S }> }>;
  "x-payment-info"?: { price: { amount: string }; maxAmountRequired: string };
}
interface Doc {
  paths: Record<string, Record<string, Op>>;
  components: { schemas: Record<string, S> };
}

/** One paid POST with a body, a query parameter, a 200 body and a price; `change` edits a copy. */
function doc(change: (d: Doc) => void = () => {}): Doc {
  const d: Doc = {
    paths: {
      "/lp/pools": {
        post: {
          parameters: [{ name: "venue", in: "query", required: false, schema: { type: "string" } }],
          requestBody: {
            required: false,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: {
                    sort: { type: "string", enum: ["apr", "tvl"] },
                    limit: { type: "integer", maximum: 50 },
                  },
                },
              },
            },
          },
          responses: { "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/Pools" } } } } },
          "x-payment-info": { price: { amount: "0.001" }, maxAmountRequired: "1000" },
        },
      },
      "/free": { get: { responses: { "200": { content: { "application/json": { schema: { type: "object" } } } } } } },
    },
    components: {
      schemas: {
        Pools: {
          type: "object",
          required: ["pools"],
          properties: {
            pools: { type: "array", items: { $ref: "#/components/schemas/Pool" } },
            total: { type: "integer" },
          },
        },
        Pool: { type: "object", properties: { name: { type: "string" }, apr_pct: { type: "number" } } },
      },
    },
  };
  change(d);
  return d;
}

const kinds = (after: Doc): string[] =>
  breakingChanges(doc(), after).map((c: { kind: string; detail: string }) => `${c.kind}: ${c.detail}`);
type ObjectSchema = S & { properties: Record<string, S> };
const post = (d: Doc) => d.paths["/lp/pools"]?.post as Op & { requestBody: NonNullable<Op["requestBody"]> };
const body = (d: Doc) => post(d).requestBody.content["application/json"]?.schema as ObjectSchema;
const field = (schema: S | undefined, name: string) => (schema as ObjectSchema).properties[name] as S;
const component = (d: Doc, name: string) => d.components.schemas[name] as ObjectSchema;

describe("breakingChanges", () => {
  it("finds nothing between equal documents, nor in additions", () => {
    expect(kinds(doc())).toEqual([]);
    const added = doc((d) => {
      d.paths["/new"] = { get: { responses: {} } };
      component(d, "Pool").properties.tvl_usd = { type: "number" };
      field(body(d), "sort").enum?.push("volume");
      field(body(d), "limit").maximum = 100;
    });
    expect(kinds(added)).toEqual([]);
  });

  it("finds a removed operation and a removed response", () => {
    expect(kinds(doc((d) => delete d.paths["/free"]))).toEqual(["removed-operation: operation removed"]);
    expect(kinds(doc((d) => delete post(d).responses["200"]))).toEqual(["removed-response: response 200 removed"]);
  });

  it("finds a removed response field, also inside array items behind a $ref", () => {
    expect(kinds(doc((d) => delete component(d, "Pool").properties.apr_pct))).toEqual([
      "removed-field: response 200.pools[].apr_pct removed",
    ]);
  });

  it("finds changed types: a response that may carry a new type, a request that refuses an old one", () => {
    expect(kinds(doc((d) => (component(d, "Pools").properties.total = { type: "number" })))).toEqual([
      "changed-type: response 200.total type changed from integer to number",
    ]);
    expect(kinds(doc((d) => (field(body(d), "limit").type = "string")))).toEqual([
      "changed-type: body.limit type changed from integer to string",
    ]);
  });

  it("finds a narrowed enum and a narrowed range in the request", () => {
    expect(kinds(doc((d) => (field(body(d), "sort").enum = ["apr"])))).toEqual([
      "narrowed-enum: body.sort no longer accepts tvl",
    ]);
    expect(kinds(doc((d) => (field(body(d), "limit").maximum = 20)))).toEqual([
      "narrowed-range: body.limit maximum 50 → 20",
    ]);
  });

  it("finds new required parameters and body fields", () => {
    expect(kinds(doc((d) => ((post(d).parameters?.[0] as { required: boolean }).required = true)))).toEqual([
      "new-required-parameter: query parameter venue is now required",
    ]);
    expect(kinds(doc((d) => (body(d).required = ["sort"])))).toEqual(["new-required-field: body.sort is now required"]);
    expect(kinds(doc((d) => (post(d).requestBody.required = true)))).toEqual([
      "new-required-field: request body is now required",
    ]);
  });

  it("finds a request object closed to fields it does not name (as ...Record<never> writes it, or false)", () => {
    const closed = "closed-object: body no longer accepts fields it does not name";
    expect(kinds(doc((d) => (body(d).unevaluatedProperties = { not: {} })))).toEqual([closed]);
    expect(kinds(doc((d) => (body(d).additionalProperties = false)))).toEqual([closed]);
    // a response that closes takes nothing from its clients
    expect(kinds(doc((d) => (component(d, "Pools").unevaluatedProperties = { not: {} })))).toEqual([]);
  });

  it("finds a changed price", () => {
    const repriced = doc(
      (d) => (post(d)["x-payment-info"] = { price: { amount: "0.002" }, maxAmountRequired: "2000" }),
    );
    expect(kinds(repriced)).toEqual(["changed-price: price changed from 0.001 USD (1000) to 0.002 USD (2000)"]);
  });

  it("names each change with a stable id: service, operation and detail", () => {
    const [change] = breakingChanges(
      doc(),
      doc((d) => delete d.paths["/free"]),
      "registry",
    );
    expect(change.id).toBe("registry: GET /free: operation removed");
  });
});

describe("judge", () => {
  const changes = breakingChanges(
    doc(),
    doc((d) => delete d.paths["/free"]),
  );

  it("accepts a change acknowledged with a reason, not one without", () => {
    expect(judge(changes, [{ change: changes[0].id, reason: "the free probe moved to /" }]).unacknowledged).toEqual([]);
    expect(judge(changes, [{ change: changes[0].id, reason: " " }]).unacknowledged).toHaveLength(1);
  });

  it("reports acknowledgements that match no change", () => {
    expect(judge([], [{ change: "analytics: GET /x: operation removed", reason: "old" }]).stale).toHaveLength(1);
  });
});
