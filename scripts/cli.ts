/**
 * `npm run cli -- <operation> [--param value ...] [--network solana|base|skale] [--protocol v1|v2] [--yes] [--json]`:
 * pays one analytics endpoint from the command line. Shows the endpoint, the parameters and the
 * price from the 402 challenge, asks before paying (unless `--yes`), pays (x402 v2 when offered,
 * else v1, or the version `--protocol` names), prints the version paid in and the envelope.
 * Keys come from X402_EVM_PRIVATE_KEY / X402_SOLANA_SECRET_KEY or `--key-file`, never from argv.
 * Exit codes: 0 answered, 1 not paid or not answered, 2 usage.
 */
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { formatUsdc, usdToMicro } from "../client/amounts.js";
import { createAnalyticsClient, type PostPath } from "../client/analytics.js";
import { HttpError, PaymentRefusedError, PaymentRejectedError } from "../client/errors.js";
import { formatEnvelope, table } from "../client/format.js";
import { KEY_VARIABLES, KeyError, keySource, looksLikeKey, payerFromKeys } from "../client/keys.js";
import { isNetworkChoice, NETWORKS, type NetworkChoice, networkLabel } from "../client/networks.js";
import { type BlockhashSource, offlineBlockhash } from "../client/payers.js";
import type { PaymentQuote, ProtocolChoice } from "../client/paying-fetch.js";
import { bodyOf, type CliOperation, cliOperations, findOperation, UsageError } from "./cli-operations.js";

export interface CliIo {
  argv: string[];
  env: Record<string, string | undefined>;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  /** Prompts and progress with `--json` (so that stdout holds only JSON); default stdout. */
  stderr?: NodeJS.WritableStream;
  /** Transport for tests; default the global fetch. */
  fetch?: (request: Request) => Promise<Response>;
}

const DEFAULT_BASE_URL = "http://localhost:4021";
const OPTIONS = new Set(["network", "base-url", "max-usd", "key-file", "solana-rpc", "protocol"]);
const PROTOCOLS: readonly ProtocolChoice[] = ["auto", "v1", "v2"];
const SWITCHES = new Set(["yes", "json", "help"]);

interface Args {
  operation?: string;
  options: Map<string, string>;
  switches: Set<string>;
  params: Map<string, string | true>;
}

function parseArgs(argv: string[]): Args {
  if (
    argv.some(
      (token) =>
        looksLikeKey(token.replace(/^--[\w-]+=/, "")) || /^--?[\w-]*(key|secret|private|mnemonic)(=|$)/i.test(token),
    )
  )
    throw new UsageError(
      `keys are never taken from the command line: set ${KEY_VARIABLES.evm} / ${KEY_VARIABLES.svm} or pass --key-file <path>`,
    );
  const args: Args = { options: new Map(), switches: new Set(), params: new Map() };
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] as string;
    if (token === "-y") args.switches.add("yes");
    else if (token === "-h") args.switches.add("help");
    else if (token.startsWith("--")) {
      const [flag, inline] = token.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      if (SWITCHES.has(flag)) {
        args.switches.add(flag);
        continue;
      }
      const next = argv[i + 1];
      const takesNext = inline === undefined && next !== undefined && !next.startsWith("--");
      if (takesNext) i++;
      const value = inline ?? (takesNext ? next : undefined);
      if (OPTIONS.has(flag)) {
        if (value === undefined) throw new UsageError(`--${flag} needs a value`);
        args.options.set(flag, value);
      } else args.params.set(flag, value ?? true);
    } else if (args.operation === undefined) args.operation = token;
    else throw new UsageError(`unexpected argument "${token}"`);
  }
  return args;
}

function usage(): string[] {
  const ops = cliOperations();
  return [
    "Usage: npm run cli -- <operation> [--param value ...] [options]",
    "",
    "Options:",
    "  --network solana|base|skale  prefix to call and pay on (default: solana, or base when only an EVM key is set)",
    `  --base-url URL               analytics service (default ${DEFAULT_BASE_URL})`,
    "  --max-usd AMOUNT             refuse to pay more than this per call (default 0.10)",
    "  --protocol v1|v2             pay in this x402 version only (default auto: v2 when the 402 offers it, else v1)",
    "  --yes, -y                    pay without asking",
    "  --json                       print the raw envelope JSON",
    "  --key-file PATH              JSON file with X402_EVM_PRIVATE_KEY and/or X402_SOLANA_SECRET_KEY",
    "  --solana-rpc URL             RPC for the Solana blockhash (or SOLANA_RPC_URL)",
    "  <operation> --help           the operation's parameters",
    "",
    `Operations (${ops.length}; the same on every network):`,
    ...table(
      ["operation", "path", "USD", "summary"],
      ops.map((op) => [op.name, op.path, op.price, op.summary]),
    ),
  ];
}

function operationHelp(op: CliOperation): string[] {
  return [
    `${op.name}  POST ${op.path}  ${op.price} USD`,
    op.description,
    "",
    ...(op.fields.length
      ? table(
          ["parameter", "type", "required", "default", "description"],
          op.fields.map((f) => [
            `--${f.name}`,
            f.enum ? f.enum.join("|") : f.types.join("|"),
            f.required ? "yes" : "",
            f.default ?? "",
            f.description ?? "",
          ]),
        )
      : ["  (no parameters)"]),
  ];
}

/** The first line of `stdin` (empty at end of input). */
async function readLine(stdin: NodeJS.ReadableStream): Promise<string> {
  const lines = createInterface({ input: stdin, terminal: false });
  try {
    for await (const line of lines) return line;
    return "";
  } finally {
    lines.close();
  }
}

async function solanaBlockhash(
  io: CliIo,
  args: Args,
  baseUrl: string,
  say: (...lines: string[]) => void,
): Promise<BlockhashSource> {
  const rpcUrl = args.options.get("solana-rpc") ?? io.env.SOLANA_RPC_URL;
  if (rpcUrl) return { rpcUrl };
  const info = (await (io.fetch ?? fetch)(new Request(`${baseUrl}/`)).then((r) => r.json())) as { settlement?: string };
  if (info.settlement !== "ledger")
    throw new UsageError("a Solana payment needs a recent blockhash: set SOLANA_RPC_URL or --solana-rpc");
  say("(the service settles to its ledger without broadcasting: an offline blockhash is used)");
  return { blockhash: async () => offlineBlockhash() };
}

function protocolOf(args: Args): ProtocolChoice {
  const chosen = args.options.get("protocol") ?? "auto";
  if (!PROTOCOLS.includes(chosen as ProtocolChoice))
    throw new UsageError(`--protocol must be v1, v2 or auto, got "${chosen}"`);
  return chosen as ProtocolChoice;
}

function defaultNetwork(io: CliIo, args: Args): NetworkChoice {
  const chosen = args.options.get("network");
  if (chosen !== undefined) {
    if (!isNetworkChoice(chosen)) throw new UsageError(`--network must be solana, base or skale, got "${chosen}"`);
    return chosen;
  }
  const onlyEvm = !args.options.has("key-file") && io.env[KEY_VARIABLES.evm] && !io.env[KEY_VARIABLES.svm];
  return onlyEvm ? "base" : "solana";
}

export async function main(io: CliIo): Promise<number> {
  const out = (...lines: string[]) => io.stdout.write(`${lines.join("\n")}\n`);
  let json = false;
  const say = (...lines: string[]) => (json ? (io.stderr ?? io.stdout) : io.stdout).write(`${lines.join("\n")}\n`);
  try {
    const args = parseArgs(io.argv);
    json = args.switches.has("json");
    if (args.operation === undefined) {
      say(...usage());
      return args.switches.has("help") ? 0 : 2;
    }
    const operation = findOperation(args.operation);
    if (args.switches.has("help")) {
      say(...operationHelp(operation));
      return 0;
    }
    const body = bodyOf(operation, args.params);
    const network = defaultNetwork(io, args);
    const protocol = protocolOf(args);
    const baseUrl = (args.options.get("base-url") ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
    const maxPerCall = usdToMicro(args.options.get("max-usd") ?? "0.10");
    const payer = await payerFromKeys(NETWORKS[network].family, keySource(io.env, args.options.get("key-file")), () =>
      solanaBlockhash(io, args, baseUrl, say),
    );

    const approve = async ({ url, method, version, requirement, amount }: PaymentQuote) => {
      const price = `${formatUsdc(amount)} USDC`;
      const on = networkLabel(requirement.network);
      say(
        `${method} ${url}`,
        ...(Object.keys(body).length
          ? Object.entries(body).map(([k, v]) => `  ${k} = ${JSON.stringify(v)}`)
          : ["  (no parameters)"]),
        `price: ${price} (${amount} micro-USDC) on ${on} over x402 v${version}, to ${requirement.payTo}, from ${payer.address}`,
      );
      if (args.switches.has("yes")) return true;
      say(`Pay ${price} on ${on}? [y/N]`);
      return /^y(es)?$/i.test((await readLine(io.stdin)).trim());
    };
    const client = createAnalyticsClient({
      baseUrl,
      network,
      payer,
      maxPerCall,
      maxPerSession: maxPerCall,
      approve,
      protocol,
      ...(io.fetch ? { fetch: io.fetch } : {}),
    });
    const result = await client.call(operation.path as PostPath, body as never);
    const receipt = result.receipt;
    const over = result.version ? ` over x402 v${result.version} (${result.paymentHeaderName})` : "";
    say(
      `paid ${formatUsdc(result.paid)} USDC on ${networkLabel(receipt?.network ?? network)}${over}` +
        (receipt
          ? ` · transaction ${receipt.transaction}${receipt.simulated ? " (simulated: ledger settlement)" : ""}`
          : " · no receipt"),
    );
    if (json) out(JSON.stringify(result.envelope, null, 2));
    else out("", `HTTP ${result.status}`, ...formatEnvelope(result.envelope));
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof KeyError || error instanceof RangeError) {
      say(`error: ${error.message}`);
      return 2;
    }
    if (error instanceof PaymentRefusedError)
      say(error.reason === "declined" ? "Not paid." : `Not paid (${error.reason}): ${error.message}`);
    else if (error instanceof PaymentRejectedError)
      say(`Payment rejected (${error.reason})${error.body?.message ? `: ${error.body.message}` : ""}`);
    else if (error instanceof HttpError)
      say(
        `HTTP ${error.status}${error.body ? ` ${error.body.error}: ${error.body.message}` : ""}`,
        ...(error.body?.errors ?? []).map((e) => `  ${e.location} ${e.field}: ${e.message}`),
      );
    else say(`error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main({
    argv: process.argv.slice(2),
    env: process.env,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
  });
}
