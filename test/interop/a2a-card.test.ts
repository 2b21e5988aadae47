// Interoperability: the official A2A client, @a2a-js/sdk 1.3.0 (A2A v1.0), reads the running service's agent card
// at /.well-known/agent-card.json and builds its transport from it: the JSON-RPC binding, version 1.0, at /a2a. A
// 0.3-shaped card (a top-level `url`, no `supportedInterfaces`) gave "No compatible transport found". Only the card is
// read: no A2A call is made. What the SDK's resolver and its protobuf-JSON reader (`AgentCard.fromJSON`) take from the
// card is what discovery-surfaces.ts builds.
import { AgentCard as ProtoAgentCard } from "@a2a-js/sdk";
import { ClientFactory, DefaultAgentCardResolver } from "@a2a-js/sdk/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { X402_EXTENSION_URI } from "../../server/a2a/protocol.js";
import { loadAnalyticsContract } from "../../server/analytics/contract/analytics-contract.js";
import { discoverySurfaces } from "../../server/analytics/free/discovery-surfaces.js";
import { loadAnalyticsConfig } from "../../server/config/analytics.js";
import { paidTools } from "../../server/mcp/paid/catalogue.js";
import { listenDefaults, type Running } from "../support/x402-clients.js";

const contract = loadAnalyticsContract();
// listenDefaults' configuration: `npm start`'s defaults with an in-memory ledger.
const config = loadAnalyticsConfig({ LEDGER_DB: ":memory:" });
const built = (origin: string) => discoverySurfaces({ contract, config, settlement: "ledger" }).agentCard(origin);

let service: Running;
beforeAll(async () => {
  service = await listenDefaults();
});
afterAll(() => service?.close());

describe("the agent card, read by @a2a-js/sdk 1.3.0", () => {
  it("gives ClientFactory.createFromUrl a JSON-RPC 1.0 transport (no 'No compatible transport found')", async () => {
    const client = await new ClientFactory().createFromUrl(service.origin);
    expect(client.transport.protocolName).toBe("JSONRPC");
    expect(client.protocolVersion).toBe("1.0");
    // the card the client holds, without a call (the card declares no extended card)
    expect(await client.getAgentCard()).toEqual(built(service.origin));
  });

  it("is resolved as built, and read by the SDK's AgentCard.fromJSON field for field", async () => {
    const raw = await new DefaultAgentCardResolver().resolve(service.origin);
    expect(raw).toEqual(built(service.origin));
    const card = ProtoAgentCard.fromJSON(raw);
    expect(card.supportedInterfaces).toEqual([
      { url: `${service.origin}/a2a`, protocolBinding: "JSONRPC", protocolVersion: "1.0", tenant: "" },
    ]);
    expect(card.provider).toEqual({ organization: contract.document.info.title, url: service.origin });
    expect(card).toMatchObject({
      name: contract.document.info.title,
      version: contract.document.info.version,
      documentationUrl: `${service.origin}/docs`,
      securitySchemes: {},
      securityRequirements: [],
      defaultInputModes: ["application/json", "text/plain"],
      defaultOutputModes: ["application/json"],
    });
    expect(card.capabilities).toEqual({
      streaming: false,
      pushNotifications: false,
      extensions: [
        {
          uri: X402_EXTENSION_URI,
          description: expect.stringContaining("x402 v2"),
          required: true,
          params: {
            x402Versions: [2],
            networks: ["solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1", "eip155:84532", "eip155:324705682"],
          },
        },
      ],
    });
    expect(card.skills.map((skill) => skill.id)).toEqual([...paidTools(contract, config).keys()]);
    const tvl = card.skills.find((skill) => skill.id === "defiTvl");
    expect(tvl).toMatchObject({
      name: "Chain TVL",
      inputModes: ["application/json"],
      outputModes: ["application/json"],
    });
    expect(JSON.parse(tvl?.examples[0] ?? "")).toEqual({ skill: "defiTvl", arguments: { chain: "all", limit: 3 } });
  });

  it("would find no transport in the 0.3 card it replaces", async () => {
    const { supportedInterfaces: _, ...card } = built(service.origin);
    const legacy = { ...card, protocolVersion: "0.3.0", url: service.origin } as unknown as ProtoAgentCard;
    await expect(new ClientFactory().createFromAgentCard(legacy)).rejects.toThrow("No compatible transport found");
  });
});
