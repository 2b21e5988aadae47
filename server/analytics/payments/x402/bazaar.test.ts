// The Bazaar discovery extension of every paid route, judged by the x402 SDK's own bazaar module
// (@x402/extensions 2.27, as a facilitator cataloguing resources runs it): its schema compiles and
// validates its info; a facilitator extracts the call from a v2 payment that echoes it; the operation's
// documented request and 200 answer satisfy the schema's input and output; and it fits in a header.
import {
  bazaarResourceServerExtension,
  extractDiscoveryInfo,
  validateDiscoveryExtension,
  validateDiscoveryExtensionSpec,
} from "@x402/extensions/bazaar";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { offerFor } from "../../../../test/support/analytics.js";
import { loadAnalyticsConfig } from "../../../config/analytics.js";
import { loadAnalyticsContract } from "../../contract/analytics-contract.js";
import { atPath, bazaarExtension } from "./bazaar.js";
import { requirementTemplate } from "./requirements.js";

const contract = loadAnalyticsContract();
const config = loadAnalyticsConfig({}, contract.developmentDefaults);
const ajv = new Ajv2020({ strict: false, allErrors: true });

type Operation = {
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
};

describe("the Bazaar extension of every paid route", () => {
  for (const route of contract.paid) {
    it(`${route.method.toUpperCase()} ${route.path}`, () => {
      const extension = bazaarExtension(route, contract.document);
      expect(validateDiscoveryExtension(extension as never)).toEqual({ valid: true });
      expect(validateDiscoveryExtensionSpec(extension as never)).toEqual({ valid: true });
      expect(extension.info.input.method).toBe(route.method.toUpperCase());

      const schema = extension.schema as {
        properties: { input: unknown; output: { properties: { example: unknown } } };
      };
      const operation = contract.document.paths[route.path]?.[route.method] as unknown as Operation;
      const answer = operation.responses["200"]?.content?.["application/json"]?.example;
      const answers = ajv.compile(schema.properties.output.properties.example as object);
      expect(answers(answer), JSON.stringify(answers.errors)).toBe(true);
      if (route.method === "post") {
        const body = operation.requestBody?.content["application/json"]?.example;
        expect(extension.info.input.body).toEqual(body);
        const input = ajv.compile(schema.properties.input as object);
        expect(input(extension.info.input)).toBe(true);
        expect(input({ ...extension.info.input, body: "not an object" })).toBe(false);
      }

      const offer = offerFor({ ...requirementTemplate(route, config), resource: `https://api.example${route.path}` });
      const payment = {
        x402Version: 2,
        resource: { url: offer.v1.resource },
        accepted: offer.v2,
        payload: {},
        extensions: { bazaar: extension },
      };
      const catalogued = extractDiscoveryInfo(payment as never, offer.v2 as never);
      expect(catalogued?.discoveryInfo).toEqual(extension.info);
      // a route with path segments is catalogued once, by its template
      const catalogueUrl = extension.routeTemplate
        ? `https://api.example${extension.routeTemplate}`
        : new URL(offer.v1.resource).href;
      expect(catalogued?.resourceUrl).toBe(catalogueUrl);

      expect(Buffer.byteLength(JSON.stringify(extension))).toBeLessThan(4096);
    });
  }
});

describe("the Bazaar extension of a legacy GET with path segments", () => {
  const dynamic = contract.paid.filter((route) => route.path.includes("{"));
  it("exists (the venue, pool, mint and wallet routes under each prefix)", () => {
    expect(dynamic.length).toBeGreaterThan(0);
  });
  for (const route of dynamic) {
    it(`${route.path}: its template once, and each URL's values, as the SDK's own server writes them`, () => {
      const extension = bazaarExtension(route, contract.document);
      const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
      // a base58 address of 32 bytes fits every id segment (pool, mint, wallet)
      const values = Object.fromEntries(
        names.map((name) => [name, name === "venue" ? "meteora" : "5rCf1DM8LjKTw4YqhnoLcngyZYeNnQqztScTogYHAS6"]),
      );
      const url = route.expressPath.replace(/:(\w+)/g, (_, name: string) => values[name] as string);
      const ours = atPath(extension, values);
      // What @x402/extensions' resource-server extension adds to a declaration on the same route and URL.
      const sdk = bazaarResourceServerExtension.enrichDeclaration?.(
        { info: extension.info, schema: extension.schema },
        {
          method: "GET",
          routePattern: route.expressPath,
          adapter: { getPath: () => url },
        } as never,
      ) as { routeTemplate?: string; info: { input: { pathParams?: unknown } } };
      expect(ours.routeTemplate).toBe(sdk.routeTemplate);
      expect(ours.info.input.pathParams).toEqual(sdk.info.input.pathParams);
      expect(validateDiscoveryExtension(ours as never)).toEqual({ valid: true });
      expect(extension.info.input.pathParams).toEqual(
        Object.fromEntries(Object.keys(values).map((name) => [name, expect.any(String)])),
      );
    });
  }
});
