/**
 * `npm run demo [-- --base-url URL --registry-url URL]`: a realistic paying session, end to end.
 * Starts both services in this process on the embedded defaults (ledgers in a temp dir) unless
 * given URLs, creates throwaway wallets, then: free endpoints, a 402 challenge in both x402
 * versions, paid calls on all three prefixes (v2, and v1 by a client forcing it), replayed payments
 * refused (for another request, and in the other version's header), a cap refusal, and the
 * ledger's totals with the 90/10 split. Exits 0 only when every step behaved as expected, within
 * 60 seconds.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateKeyPairSigner } from "@solana/kit";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { formatUsdc } from "../client/amounts.js";
import {
  type AnalyticsClient,
  type AnalyticsClientOptions,
  createAnalyticsClient,
  type PaymentOutcome,
} from "../client/analytics.js";
import { PaymentRefusedError, rejectionOf } from "../client/errors.js";
import { table } from "../client/format.js";
import { type NetworkChoice, networkLabel } from "../client/networks.js";
import { evmPayer, offlineBlockhash, type Payer, solanaPayer } from "../client/payers.js";
import { createRegistryClient } from "../client/registry.js";
import { type Challenges, offersOf, readChallenges } from "../client/x402/challenge.js";
import {
  decodeHeader,
  type ExactPayload,
  encodePayment,
  PAYMENT_HEADERS,
  termsOf,
  type X402Version,
} from "../client/x402/types.js";
import { commandLine } from "../lib/command-line.mjs";
import { NETWORKS, networkNamed } from "../lib/networks.js";
import { type LocalServices, startLocalServices } from "./local-services.js";

const DEADLINE_MS = 55_000;
const TREASURY_BPS = 1000n;

/** A paid result of any operation. */
type Paid = PaymentOutcome & {
  status: number;
  envelope: { signal: string; confidence: number; insight: string | null };
};

const USAGE = `usage: npm run demo [-- --base-url URL --registry-url URL]

A paying session end to end: free endpoints, a 402 challenge in both x402 versions, paid calls on all three
prefixes with throwaway wallets (over x402 v2, and v1 by a client forcing it), replayed payments refused (for
another request, and in the other version's header), a call refused by the spending cap, and the ledger's totals
with the 90/10 split. Exits 0 only when every step behaved as expected.

  --base-url URL       an analytics service to use (default: both services started in this process)
  --registry-url URL   its registry
  --help               this text`;

const { values } = commandLine(USAGE, { valued: ["--base-url", "--registry-url"] });
const option = (name: string): string | undefined => values[`--${name}`];

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`expected ${message}`);
}

const log = (...lines: string[]) => console.log(lines.join("\n"));
const short = (text: string, keep = 10) =>
  text.length > 2 * keep + 1 ? `${text.slice(0, keep)}…${text.slice(-6)}` : text;
const over = (result: PaymentOutcome) => `over x402 v${result.version} (${result.paymentHeaderName})`;
const otherVersion = (version: X402Version): X402Version => (version === 1 ? 2 : 1);

/** A POST with a JSON body and these headers, and the challenges of its answer when it is a 402. */
async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number } & Challenges> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, ...(await readChallenges(response)) };
}
let failures = 0;
let stepNumber = 0;

/** One step: ✓ with its details, or ✗ with what went wrong; later steps still run. */
async function step(title: string, run: () => Promise<string[]>): Promise<void> {
  stepNumber++;
  const label = `${String(stepNumber).padStart(2)} `;
  try {
    const [headline = "", ...details] = await run();
    log(`${label}✓ ${title}${headline ? ` — ${headline}` : ""}`, ...details.map((d) => `       ${d}`.trimEnd()));
  } catch (error) {
    failures++;
    log(`${label}✗ ${title} — ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function main(): Promise<void> {
  const startedAt = Date.now();
  const external = option("base-url");
  const dir = external ? undefined : mkdtempSync(join(tmpdir(), "defi-intel-demo-"));
  let local: LocalServices | undefined;
  if (dir)
    local = await startLocalServices({ LEDGER_DB: join(dir, "ledger.db"), REGISTRY_DB: join(dir, "registry.db") });
  const baseUrl = (external ?? local?.analyticsUrl ?? "").replace(/\/+$/, "");
  const registryUrl = option("registry-url") ?? local?.registryUrl ?? "http://localhost:4022";

  try {
    const evm = evmPayer(privateKeyToAccount(generatePrivateKey()));
    const solana = solanaPayer(await generateKeyPairSigner(), { blockhash: async () => offlineBlockhash() });
    log(
      "defi-intel demo: paying for DeFi intelligence over x402 on three networks",
      `  analytics ${baseUrl}   registry ${registryUrl}${local ? "   (in-process, embedded defaults)" : ""}`,
      `  throwaway wallets: EVM ${evm.address} · Solana ${solana.address}`,
      "",
    );
    const session = (network: NetworkChoice, protocol: AnalyticsClientOptions["protocol"] = "auto") =>
      createAnalyticsClient({
        baseUrl,
        network,
        payer: networkNamed(network)?.family === "svm" ? solana : evm,
        maxPerCallUsd: "0.05",
        maxPerSessionUsd: "0.25",
        protocol,
      });
    const clients = Object.fromEntries(NETWORKS.map(({ name }) => [name, session(name)])) as Record<
      NetworkChoice,
      AnalyticsClient
    >;
    // A client of a wallet that speaks only x402 v1: the service still takes its payments.
    const v1Base = session("base", "v1");
    const paid: { network: NetworkChoice; path: string; body: unknown; result: Paid }[] = [];
    let settlement = "unknown";

    await step("GET /  (free service info)", async () => {
      const { data } = await clients.solana.free.GET("/");
      check(data?.status === "ok", "status ok");
      settlement = data.settlement;
      return [
        `${data.service} ${data.version}, profile ${data.profile}, settlement ${data.settlement}, ${data.endpoints} operations`,
        ...data.networks.map(
          (n) => `${(n.prefix || "/").padEnd(7)} ${n.network.padEnd(19)} USDC ${short(n.asset)} → ${short(n.payTo)}`,
        ),
      ];
    });

    await step("GET /api/agents?limit=3  (free registry)", async () => {
      const { agents } = await createRegistryClient({ baseUrl: registryUrl }).get("/api/agents", {
        query: { limit: 3 },
      });
      check(agents.length > 0, "at least one agent");
      return [`${agents.length} agents, newest first: ${agents.map((a) => a.name).join(", ")}`];
    });

    await step("POST /base/lp/pools without a payment", async () => {
      const { status, v1, v2 } = await post(`${baseUrl}/base/lp/pools`, {});
      const [offer] = v2?.accepts ?? [];
      const [legacy] = v1?.accepts ?? [];
      check(status === 402 && offer && legacy, "a 402 with one offer in each x402 version");
      return [
        `402 Payment Required: ${v2?.error} (x402 v2, PAYMENT-REQUIRED header) · ${v1?.error} (x402 v1, JSON body)`,
        `pay ${formatUsdc(BigInt(offer.amount))} USDC (${offer.amount} micro) on ${offer.network} (v1: ${legacy.network}) to ${offer.payTo}`,
        `asset ${offer.asset}, EIP-712 domain ${JSON.stringify(offer.extra)}, valid ${offer.maxTimeoutSeconds} s`,
        `pay in PAYMENT-SIGNATURE (v2) or X-PAYMENT (v1); discovery extensions: ${Object.keys(v2?.extensions ?? {}).join(", ")}`,
      ];
    });

    const payStep = <const Body>(
      client: AnalyticsClient,
      path: string,
      body: Body,
      call: (body: Body) => Promise<Paid>,
    ) =>
      step(
        `${(networkNamed(client.network)?.title ?? client.network).padEnd(6)} POST ${client.url.slice(baseUrl.length)}${path}`,
        async () => {
          const result = await call(body);
          const { envelope } = result;
          check(result.receipt?.success, "a successful receipt");
          check(
            result.requirement && result.paid === BigInt(termsOf(result.requirement).amount),
            "the amount paid to equal the price",
          );
          paid.push({ network: client.network, path, body, result });
          return [
            `${result.status} ${envelope.signal} (confidence ${envelope.confidence.toFixed(2)}), paid ${formatUsdc(result.paid)} USDC on ${networkLabel(result.receipt.network)} ${over(result)}`,
            `“${envelope.insight ?? "no insight (206: raw data)"}”`,
            `receipt ${result.receipt.transaction}${result.receipt.simulated ? " (simulated: ledger settlement)" : ""}`,
          ];
        },
      );

    await payStep(clients.solana, "/defi/tvl", { chain: "all", limit: 5 }, (body) =>
      clients.solana.call("/defi/tvl", body),
    );
    await payStep(clients.solana, "/trenches/new-tokens", { limit: 3 }, (body) =>
      clients.solana.call("/trenches/new-tokens", body),
    );
    await payStep(clients.base, "/lp/pools", { sort: "apr", limit: 5 }, (body) => clients.base.call("/lp/pools", body));
    await payStep(v1Base, "/ask", { query: "Where is the best stablecoin yield on Solana right now?" }, (body) =>
      v1Base.call("/ask", body),
    );
    await payStep(clients.skale, "/trenches/graduating", { limit: 3 }, (body) =>
      clients.skale.call("/trenches/graduating", body),
    );
    await payStep(clients.skale, "/smartmoney/token-screener", { chains: "solana,base", limit: 3 }, (body) =>
      clients.skale.call("/smartmoney/token-screener", body),
    );

    /** An earlier payment sent again: in its own header for another request, and for the same request in the other version's. */
    const replay = (network: NetworkChoice, expected: string) =>
      step(`${(networkNamed(network)?.title ?? network).padEnd(6)} replay of an already used payment`, async () => {
        const used = paid.find((p) => p.network === network);
        check(used, `an earlier payment on ${network}`);
        const { paymentHeader, version, response } = used.result;
        check(paymentHeader && version, "its payment header and version");
        const other = otherVersion(version);
        // The same signed payload in the other version's envelope, paying that version's offer; and in its own version's
        // for another request, without the purchase's payment identifier (with it, that is a 409 over the identifier).
        const [offer] = offersOf(await post(response.url, used.body), [other]);
        const [own] = offersOf(await post(response.url, {}), [version]);
        check(offer && own, `x402 v${other} and v${version} offers`);
        const { payload } = decodeHeader(paymentHeader) as { payload: ExactPayload };
        const attempts: [string, X402Version, { status: number } & Challenges][] = [
          [
            "another request",
            version,
            await post(response.url, {}, { [PAYMENT_HEADERS[version]]: encodePayment(own, payload) }),
          ],
          [
            "the same request",
            other,
            await post(response.url, used.body, { [PAYMENT_HEADERS[other]]: encodePayment(offer, payload) }),
          ],
        ];
        return [
          `paid ${over(used.result)} for POST ${new URL(response.url).pathname}; sent again:`,
          ...attempts.map(([what, v, answer]) => {
            const rejection = rejectionOf(answer, undefined, response.url, v);
            check(
              answer.status === 402 && rejection?.reason === expected,
              `402 ${expected}, got ${answer.status} ${rejection?.reason}`,
            );
            return `in ${PAYMENT_HEADERS[v]} for ${what}: refused, 402 ${rejection.reason} (${rejection.body?.message})`;
          }),
        ];
      });
    await replay("base", "invalid_exact_evm_nonce_already_used");
    await replay("solana", "duplicate_settlement");

    await step("spending cap: a client capped at 0.01 USD per call asks for /ask", async () => {
      let signed = 0;
      const counting: Payer = {
        ...evm,
        sign: (terms) => {
          signed++;
          return evm.sign(terms);
        },
      };
      const capped = createAnalyticsClient({ baseUrl, network: "skale", payer: counting, maxPerCallUsd: "0.01" });
      const error = await capped
        .call("/ask", { query: "Is SOL-USDC worth providing liquidity?" })
        .catch((e: unknown) => e);
      check(
        error instanceof PaymentRefusedError && error.reason === "cap_per_call",
        "PaymentRefusedError cap_per_call",
      );
      check(signed === 0 && capped.spent() === 0n, "nothing signed or spent");
      return [`PaymentRefusedError ${error.reason}, before signing: ${error.message}`];
    });

    await step("ledger totals", async () => {
      if (!local) return ["skipped: the ledger belongs to the external service (npm run ledger reads it)"];
      const totals = await local.ledger.totals();
      const total = paid.reduce((sum, p) => sum + p.result.paid, 0n);
      const expectedTreasury = paid.reduce((sum, p) => sum + (p.result.paid * TREASURY_BPS) / 10_000n, 0n);
      const settled = totals.byNetwork.reduce((sum, n) => sum + n.amount, 0n);
      const sumOf = (account: "service" | "treasury") =>
        totals.byAccount.filter((a) => a.account === account).reduce((sum, a) => sum + a.amount, 0n);
      const spent = [...Object.values(clients), v1Base].reduce((sum, c) => sum + c.spent(), 0n);
      check(settled === total && spent === total, `ledger ${settled} = paid ${total} = spent ${spent} micro-USDC`);
      check(totals.byNetwork.reduce((n, r) => n + r.payments, 0) === paid.length, `${paid.length} settled payments`);
      check(sumOf("treasury") === expectedTreasury && sumOf("service") === total - expectedTreasury, "a 90/10 split");
      return [
        `${paid.length} payments, ${formatUsdc(total)} USDC: service ${formatUsdc(sumOf("service"))}, treasury ${formatUsdc(sumOf("treasury"))} (90/10)`,
        "",
        ...table(
          ["network", "payments", "USDC"],
          totals.byNetwork.map((r) => [r.network, r.payments, formatUsdc(r.amount)]),
        ),
        "",
        ...table(
          ["endpoint", "payments", "USDC"],
          totals.byEndpoint.map((r) => [r.endpoint, r.payments, formatUsdc(r.amount)]),
        ),
        "",
        ...table(
          ["account", "network", "address", "USDC"],
          totals.byAccount.map((r) => [r.account, r.network, r.address, formatUsdc(r.amount)]),
        ),
        "",
        `statuses: ${totals.byStatus.map((s) => `${s.status} ${s.payments}`).join(", ")} (replays were refused before reservation)`,
      ];
    });

    const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
    log(
      "",
      failures
        ? `✗ ${failures} of ${stepNumber} steps failed (${seconds} s)`
        : `✓ all ${stepNumber} steps behaved as expected in ${seconds} s (settlement: ${settlement})`,
    );
  } finally {
    await local?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

const deadline = setTimeout(() => {
  console.error(`✗ the demo did not finish within ${DEADLINE_MS / 1000} s`);
  process.exit(1);
}, DEADLINE_MS);
deadline.unref();

main().then(
  () => {
    process.exitCode = failures ? 1 : 0;
  },
  (error: unknown) => {
    console.error("✗ demo failed:", error);
    process.exitCode = 1;
  },
);
