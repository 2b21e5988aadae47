// The analytics service's listing in the MCP registry (`generated/mcp/server.json`, written by `npm run generate`),
// from facts already kept elsewhere so that it cannot disagree with them: the tools' count, networks and prices from
// the contract's `x-payment-info` and `x-x402-networks`, the contract's title and version, and the registry name and
// version from the manifest of the package that ships the paying stdio bridge (packages/client/package.json, whose
// `mcpName` the registry checks against `name`). docs/mcp.md says how it is published.

/** The registry schema the listing follows: the `$id` of test/fixtures/mcp-registry/server.schema.json. */
export const SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/**
 * The public origin of the deployment the listing names: the placeholder the manual uses for `PUBLIC_BASE_URL`
 * (docs/deployment.md). The registry takes only an https URL that is not localhost, so the spec's own server
 * (http://localhost:4021) cannot be listed; set the real origin here before publishing.
 */
export const PUBLIC_ORIGIN = "https://api.example.com";

/** The registry's limit on `description`. */
const DESCRIPTION_LIMIT = 100;

/** The only `_meta` key the registry keeps. */
const PUBLISHER_META = "io.modelcontextprotocol.registry/publisher-provided";

/** "a, b and c". */
const spoken = (items) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);

/** The paid operations' names (`Base_defiTvl` → `defiTvl`), one per tool, and their USD prices. */
function paidOperations(doc) {
  const prices = new Map();
  for (const item of Object.values(doc.paths)) {
    const info = item.post?.["x-payment-info"];
    if (info) prices.set(item.post.operationId.split("_").slice(1).join("_"), info.price.amount);
  }
  return prices;
}

/** The bridge's options a host sets (scripts/mcp.ts); `--key-file`, `--solana-rpc` and `--confirm` are left to the manual. */
function bridgeArguments(networks) {
  return [
    {
      type: "named",
      name: "--base-url",
      description: "The analytics service each call is forwarded to",
      isRequired: true,
      default: PUBLIC_ORIGIN,
    },
    {
      type: "named",
      name: "--network",
      description: "The network each call is paid on (the wallet key below must be for it)",
      isRequired: true,
      choices: networks.map((network) => network.name),
    },
    { type: "named", name: "--max-per-call", description: "Refuse a call that costs more (USD)", default: "0.05" },
    { type: "named", name: "--max-total", description: "Refuse a call once this much is spent (USD)", default: "1.00" },
  ];
}

/** The environment the bridge reads (client/keys.ts, scripts/mcp.ts): one key per network family. */
function bridgeEnvironment(networks) {
  const on = (family) =>
    spoken(networks.filter((network) => network.family === family).map((network) => `--network ${network.name}`));
  return [
    {
      name: "X402_EVM_PRIVATE_KEY",
      description: `The paying wallet's private key (0x and 64 hex digits), for ${on("evm")}`,
      isSecret: true,
    },
    {
      name: "X402_SOLANA_SECRET_KEY",
      description: `The paying wallet's secret key (a JSON array of 64 bytes), for ${on("svm")}`,
      isSecret: true,
    },
    {
      name: "SOLANA_RPC_URL",
      description:
        "A Solana RPC for a payment's recent blockhash (not needed against a service settling to its ledger)",
    },
  ];
}

/**
 * The listing: the service's `/mcp` as a remote, the bridge's package for hosts that do not pay x402.
 * @param {object} doc the analytics OpenAPI 3.1 document
 * @param {{ name: string, version: string, mcpName: string }} bridge the bridge package's manifest
 * @returns {object} the content of server.json
 */
export function registryListing(doc, bridge) {
  const networks = doc["x-x402-networks"];
  const prices = [...paidOperations(doc).values()].sort((a, b) => Number(a) - Number(b));
  const titles = spoken(networks.map((network) => network.title));
  const description = `${prices.length} DeFi intelligence tools, each call paid with x402 in USDC on ${titles}`;
  if (description.length > DESCRIPTION_LIMIT)
    throw new Error(`the MCP registry takes at most ${DESCRIPTION_LIMIT} characters of description: ${description}`);
  if (!bridge.mcpName) throw new Error(`${bridge.name}'s manifest has no mcpName`);
  return {
    $schema: SCHEMA,
    name: bridge.mcpName,
    title: doc.info.title,
    description,
    version: bridge.version,
    remotes: [{ type: "streamable-http", url: `${PUBLIC_ORIGIN}/mcp` }],
    packages: [
      {
        // No registryBaseUrl: the MCP registry takes only the public npm registry, its default.
        registryType: "npm",
        identifier: bridge.name,
        version: bridge.version,
        transport: { type: "stdio" },
        packageArguments: bridgeArguments(networks),
        environmentVariables: bridgeEnvironment(networks),
      },
    ],
    _meta: {
      [PUBLISHER_META]: {
        contractVersion: doc.info.version,
        x402: {
          asset: "USDC",
          networks: networks.map((network) => network.name),
          usdPerCall: { min: prices[0], max: prices.at(-1) },
        },
      },
    },
  };
}
