/**
 * A stand-in x402 v1 facilitator over the local chains: `GET /supported` names the local Solana fee
 * payer, `POST /settle` settles on the hardhat or litesvm chain after `delayMs` (a slow facilitator,
 * so that a service can be killed while it waits). Settlements it has started always finish, whatever
 * becomes of the service that asked, as a real facilitator's would. The EVM chain mines a block every
 * `blockEveryMs`, so that its clock moves as a public chain's does. With `pending: n`, the first `n`
 * settle calls of each payment are answered at once with x402's `settlement_pending`, while its
 * settlement goes on; a payment asked again is never settled twice (as a facilitator that remembers
 * what it broadcast).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { LocalChains } from "../../server/analytics/payments/settlement/backends/local-chain/index.js";
import type { BackendResult } from "../../server/analytics/payments/settlement/settlement.js";
import type { PaymentRequirements, VerifiedPayment } from "../../server/analytics/payments/x402/types.js";

export interface StandinFacilitator {
  url: string;
  /** `POST /settle` calls received so far. */
  received(): number;
  /** Payments whose money moved on the chain so far. */
  settled(): number;
  /** Resolves once every settlement started so far has finished on its chain. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export async function startStandinFacilitator(
  chains: LocalChains,
  { delayMs = 500, blockEveryMs = 500, pending = 0 } = {},
): Promise<StandinFacilitator> {
  let received = 0;
  let settled = 0;
  const inFlight = new Set<Promise<unknown>>();
  const started = new Map<string, { asked: number; settlement: Promise<BackendResult> }>();
  /** Settles the payment on its chain after `delayMs`, whatever becomes of the call that asked. */
  function settle(paymentPayload: { network: string; payload: unknown }, requirement: PaymentRequirements) {
    const settlement = new Promise((resolve) => setTimeout(resolve, delayMs)).then(async () => {
      const payment = { network: paymentPayload.network, payload: paymentPayload.payload, requirement };
      const result = await chains.backend.settle(payment as VerifiedPayment);
      if (result.ok) settled++;
      return result;
    });
    inFlight.add(settlement);
    settlement.finally(() => inFlight.delete(settlement));
    return settlement;
  }
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      const reply = (body: unknown) => {
        if (!res.destroyed) res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
      };
      if (req.url?.endsWith("/supported"))
        return reply({
          kinds: [
            { x402Version: 1, scheme: "exact", network: chains.svm.network, extra: { feePayer: chains.feePayer } },
          ],
        });
      received++;
      const { paymentPayload, paymentRequirements } = JSON.parse(raw) as {
        paymentPayload: { network: string; payload: unknown };
        paymentRequirements: PaymentRequirements;
      };
      const key = JSON.stringify(paymentPayload.payload);
      const known = started.get(key) ?? { asked: 0, settlement: settle(paymentPayload, paymentRequirements) };
      started.set(key, { ...known, asked: known.asked + 1 });
      if (known.asked < pending)
        return reply({
          success: false,
          errorReason: "settlement_pending",
          transaction: "",
          network: paymentPayload.network,
        });
      known.settlement.then((result) =>
        reply(
          result.ok
            ? { success: true, transaction: result.transaction, network: paymentPayload.network }
            : { success: false, errorReason: result.reason, transaction: "", network: paymentPayload.network },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const mining = setInterval(() => {
    chains.evm.provider.request({ method: "evm_mine" }).catch(() => {});
  }, blockEveryMs);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => received,
    settled: () => settled,
    idle: async () => {
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(mining);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The service's settings for SETTLEMENT=facilitator at `url`, recovery reading the local chains over their JSON-RPC. */
export function facilitatorSettlement(chains: LocalChains, url: string): Record<string, string> {
  if (!chains.evmRpcUrl || !chains.rpcUrl)
    throw new Error("the local chains were started without their JSON-RPC endpoints");
  return {
    SETTLEMENT: "facilitator",
    FACILITATOR_URL: url,
    SETTLEMENT_RPC_BASE_SEPOLIA: chains.evmRpcUrl,
    SETTLEMENT_RPC_SKALE_BASE_SEPOLIA: chains.evmRpcUrl,
    SETTLEMENT_RPC_SOLANA_DEVNET: chains.rpcUrl,
  };
}
