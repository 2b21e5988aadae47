/**
 * Pre-signed payment pools, so that the load generator measures the server and not the client's
 * signing. EVM authorizations are signed with native secp256k1 over the project's own EIP-712
 * digest (thousands per second); Solana transactions with the project's signing helper.
 */
import { randomBytes } from "node:crypto";
import { type Address, getAddressDecoder, type TransactionSigner } from "@solana/kit";
import secp256k1 from "secp256k1";
import { privateKeyToAccount } from "viem/accounts";
import { chainIdOf } from "../client/x402/evm.js";
import { signSvmPayment } from "../client/x402/svm.js";
import { encodePaymentHeader, type PaymentRequirements } from "../client/x402/types.js";
import { authorizationDigest, domainSeparator } from "../server/analytics/payments/exact/evm/eip3009.js";
import { currentHeaders, currentMeta } from "../test/support/current-revision.js";

export function evmPaymentPool(requirement: PaymentRequirements, count: number, privateKey: `0x${string}`): string[] {
  const domain = requirement.extra as { name: string; version: string };
  const separator = domainSeparator({
    ...domain,
    chainId: chainIdOf(requirement.network) as number,
    verifyingContract: requirement.asset,
  });
  const from = privateKeyToAccount(privateKey).address;
  const key = Buffer.from(privateKey.slice(2), "hex");
  const now = Math.floor(Date.now() / 1000);
  return Array.from({ length: count }, () => {
    const authorization = {
      from,
      to: requirement.payTo,
      value: requirement.maxAmountRequired,
      validAfter: String(now - 600),
      validBefore: String(now + requirement.maxTimeoutSeconds),
      nonce: `0x${randomBytes(32).toString("hex")}`,
    };
    const digest = authorizationDigest(separator, {
      ...authorization,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
    });
    const { signature, recid } = secp256k1.ecdsaSign(digest, key);
    const hex = `0x${Buffer.from(signature).toString("hex")}${(27 + recid).toString(16)}`;
    return encodePaymentHeader({
      x402Version: 1,
      scheme: "exact",
      network: requirement.network,
      payload: { signature: hex, authorization },
    });
  });
}

export async function svmPaymentPool(
  requirement: PaymentRequirements,
  count: number,
  payer: TransactionSigner,
): Promise<string[]> {
  const pool: string[] = [];
  // one blockhash per transaction keeps every transaction (and its replay key) distinct
  for (let i = 0; i < count; i++)
    pool.push(
      await signSvmPayment(payer, requirement, { blockhash: getAddressDecoder().decode(randomBytes(32)) as Address }),
    );
  return pool;
}

/** Each of `payments` (signed v1 headers of one route) as the v2 `PaymentPayload` object paying `required`'s offer on `caip2`. */
export function v2Payments(
  required: { resource: unknown; accepts: { network: string }[] },
  caip2: string,
  payments: string[],
  what: string,
) {
  const accepted = required.accepts.find((requirement) => requirement.network === caip2);
  if (!accepted) throw new Error(`${what} is not offered on ${caip2}`);
  return payments.map((header) => {
    const { payload } = JSON.parse(Buffer.from(header, "base64").toString("utf8")) as { payload: unknown };
    return { x402Version: 2, resource: required.resource, accepted, payload };
  });
}

/** The same payments as x402 v2 `PAYMENT-SIGNATURE` values, for the route whose challenge is `required`. */
export function v2PaymentHeaders(
  required: { resource: unknown; accepts: { network: string }[] },
  caip2: string,
  payments: string[],
): string[] {
  return v2Payments(required, caip2, payments, "the route").map((payment) => encodePaymentHeader(payment as never));
}

/** The MCP revisions the bench pays tools on: the 2025 era, and 2026-07-28 advertising x402's extension. */
export type McpEra = "2025" | "2026-07-28";

/**
 * Paid MCP tool calls (`tools/call` JSON-RPC bodies), each carrying one of `payments` (signed v1 headers of the
 * tool's route on that network) as the v2 `PaymentPayload` object x402's MCP transport puts in `_meta`. On
 * 2026-07-28, `_meta` also names the revision, the client and its capabilities, x402's extension
 * `org.x402/payment` among them (the extension binding); each call also carries `mcpHeaders(era, tool)`.
 */
export function toolCallBodies(
  tool: string,
  args: Record<string, unknown>,
  required: { resource: unknown; accepts: { network: string }[] },
  caip2: string,
  payments: string[],
  era: McpEra = "2025",
): string[] {
  const meta = era === "2025" ? {} : currentMeta(true, "defi-intel-bench");
  return v2Payments(required, caip2, payments, tool).map((payment, id) =>
    JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: tool, arguments: args, _meta: { ...meta, "x402/payment": payment } },
    }),
  );
}

/** The headers of a `tools/call` of `tool` in `era`: the streamable HTTP transport's, and on 2026-07-28 the revision's. */
export function mcpHeaders(era: McpEra, tool: string): Record<string, string> {
  return {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...(era === "2025" ? {} : currentHeaders("tools/call", tool)),
  };
}
