/**
 * `npm run mcp -- --base-url URL --network base|skale|solana [--max-per-call USD] [--max-total USD] [--confirm]`:
 * a paying MCP bridge on stdio (client/mcp-bridge.ts) for hosts that speak MCP but do not pay x402; the
 * `defi-intel-mcp` command of the @defi-intel/client package (packages/client), which the MCP registry lists.
 * stdout carries the protocol and nothing else; what the bridge says goes to stderr. Keys come from
 * X402_EVM_PRIVATE_KEY / X402_SOLANA_SECRET_KEY or `--key-file`, never from the command line.
 * Exit codes: 0 when the host closes stdin, 1 when the bridge cannot start, 2 usage.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import * as types from "@modelcontextprotocol/sdk/types.js";
import { formatUsdc, usdToMicro } from "../client/amounts.js";
import { KeyError, keySource, payerFromKeys } from "../client/keys.js";
import { payingBridge, serveBridge } from "../client/mcp-bridge.js";
import { currentRevisionHost, eraRouter } from "../client/mcp-current-host.js";
import { connectUpstream } from "../client/mcp-upstream.js";
import { isNetworkChoice, NETWORKS } from "../client/networks.js";
import { type BlockhashSource, offlineBlockhash } from "../client/payers.js";
import { commandLine } from "../lib/command-line.mjs";

const USAGE = `Usage: npm run mcp -- --network base|skale|solana [options]
       defi-intel-mcp --network base|skale|solana [options]   (installed with @defi-intel/client)

A paying MCP bridge on stdio: the analytics service's tools, each call paid from your key under two caps.
It serves hosts of MCP 2026-07-28 and of the 2025 revisions, and pays the service over x402's extension
binding (org.x402/payment) when the service offers it, else over the tool-result binding.

Options:
  --base-url URL        the analytics service (default http://localhost:4021)
  --network NAME        the network to pay on: base, skale or solana
  --max-per-call USD    refuse a call that costs more (default 0.05)
  --max-total USD       refuse a call once this much is spent (default 1.00)
  --key-file PATH       a JSON file with X402_EVM_PRIVATE_KEY or X402_SOLANA_SECRET_KEY (default: the environment)
  --solana-rpc URL      RPC for a Solana payment's blockhash (or SOLANA_RPC_URL)
  --confirm             ask before each payment (elicitation, or input_required on 2026-07-28; a host that
                        cannot ask gets a tool error)`;

function fail(message: string, code: number): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

async function solanaSource(baseUrl: string, rpcUrl: string | undefined): Promise<BlockhashSource> {
  if (rpcUrl) return { rpcUrl };
  const info = (await fetch(`${baseUrl}/`).then((r) => r.json())) as { settlement?: string };
  if (info.settlement !== "ledger")
    throw new KeyError("a Solana payment needs a recent blockhash: set SOLANA_RPC_URL or --solana-rpc");
  // The service settles to its ledger without broadcasting: any blockhash-shaped value does.
  return { blockhash: async () => offlineBlockhash() };
}

async function main(): Promise<void> {
  const { values, flags } = commandLine(USAGE, {
    valued: ["--base-url", "--network", "--max-per-call", "--max-total", "--key-file", "--solana-rpc"],
    flags: ["--confirm"],
  });
  const network = values["--network"];
  if (!network || !isNetworkChoice(network)) fail(`--network must be base, skale or solana\n\n${USAGE}`, 2);
  const baseUrl = (values["--base-url"] ?? "http://localhost:4021").replace(/\/+$/, "");
  let maxPerCall: bigint;
  let maxTotal: bigint;
  try {
    maxPerCall = usdToMicro(values["--max-per-call"] ?? "0.05");
    maxTotal = usdToMicro(values["--max-total"] ?? "1.00");
  } catch (error) {
    fail(`${(error as Error).message}\n\n${USAGE}`, 2);
  }
  const rpcUrl = values["--solana-rpc"] ?? process.env.SOLANA_RPC_URL;
  const payer = await payerFromKeys(NETWORKS[network].family, keySource(process.env, values["--key-file"]), () =>
    solanaSource(baseUrl, rpcUrl),
  );

  const info = { name: "defi-intel-bridge", version: "1.0.0" };
  const { upstream, revision, binding } = await connectUpstream(new URL(`${baseUrl}/mcp`), { clientInfo: info });
  const confirm = flags.has("--confirm");
  const bridge = payingBridge({ upstream, network, payer, maxPerCall, maxTotal, confirm });
  const instructions = `Paid DeFi intelligence tools. Each call is paid on ${network} from ${payer.address}, at most ${formatUsdc(maxPerCall)} USDC per call and ${formatUsdc(maxTotal)} USDC in all.`;
  const server = new Server(info, { capabilities: { tools: {} }, instructions });
  serveBridge(server, bridge, types);
  const current = currentRevisionHost({
    bridge,
    confirm,
    serverInfo: info,
    instructions,
    legacyVersions: types.SUPPORTED_PROTOCOL_VERSIONS,
  });
  const transport = eraRouter(new StdioServerTransport(), current);
  transport.onclose = () => void upstream.close().finally(() => process.exit(0));
  await server.connect(transport);
  process.stderr.write(
    `paying MCP bridge to ${baseUrl}/mcp (MCP ${revision}, x402 ${binding} binding) on ${network}, from ${payer.address}\n`,
  );
}

main().catch((error) => fail(`mcp bridge: ${(error as Error).message}`, 1));
