// @paid: the one place where an operation's price becomes machine-readable payment metadata.
// It writes the `x-payment-info` extension (x402scan / agentcash convention, plus the x402 v1
// details this service settles with: both protocol versions, and a network profile that gives each
// network's v1 name and its CAIP-2 id) and computes the atomic USDC amount with integer arithmetic, so a price can never drift into a float such as "1004999.9999999999".
import { setExtension } from "@typespec/openapi";

const USDC_DECIMALS = 6;
const SERVICE_BPS = 9000;
const TREASURY_BPS = 1000;

/** "0.025" -> "25000" (micro-USDC); undefined when the string is not a plain decimal with <= 6 places. */
export function usdToMicroUsdc(price) {
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(price);
  if (!match) return undefined;
  const [, whole, fraction = ""] = match;
  const atomic = BigInt(whole) * 10n ** BigInt(USDC_DECIMALS) + BigInt(fraction.padEnd(USDC_DECIMALS, "0"));
  return atomic > 0n ? atomic.toString() : undefined;
}

function $paid(context, target, price, network) {
  const atomic = usdToMicroUsdc(price);
  if (atomic === undefined) {
    context.program.reportDiagnostic({
      code: "invalid-price",
      severity: "error",
      message: `Price "${price}" must be a positive USD decimal with at most ${USDC_DECIMALS} places.`,
      target: context.decoratorTarget,
    });
    return;
  }
  setExtension(context.program, target, "x-payment-info", {
    price: { mode: "fixed", currency: "USD", amount: price },
    protocols: [{ x402: { x402Version: 1, scheme: "exact" } }, { x402: { x402Version: 2, scheme: "exact" } }],
    maxAmountRequired: atomic,
    asset: { symbol: "USDC", decimals: USDC_DECIMALS },
    network,
    split: { serviceBps: SERVICE_BPS, treasuryBps: TREASURY_BPS, remainder: "service" },
  });
}

export const $decorators = { "Analytics.X402": { paid: $paid } };
