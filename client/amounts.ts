/**
 * USDC amounts as integer micro-USDC (6 decimals), never floats: parsing a USD cap and printing an
 * amount are both done on decimal strings and bigints.
 */

export const MICRO_PER_USDC = 1_000_000n;

/** `"0.05"` or `0.05` → `50000n`. Refuses negatives, exponents and more than 6 decimals. */
export function usdToMicro(usd: string | number): bigint {
  const text = typeof usd === "number" ? String(usd) : usd.trim();
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(text);
  if (!match) throw new RangeError(`not a USD amount with at most 6 decimals: "${text}"`);
  const [, whole = "0", fraction = ""] = match;
  return BigInt(whole) * MICRO_PER_USDC + BigInt(fraction.padEnd(6, "0"));
}

/** An integer string or bigint of micro-USDC, checked: `"1000"` → `1000n`. */
export function microAmount(value: bigint | string): bigint {
  if (typeof value === "bigint") {
    if (value < 0n) throw new RangeError(`negative amount: ${value}`);
    return value;
  }
  if (!/^\d+$/.test(value)) throw new RangeError(`not an integer micro-USDC amount: "${value}"`);
  return BigInt(value);
}

/** `1000n` → `"0.001"`, `2500000n` → `"2.5"`, `0n` → `"0"`. */
export function formatUsdc(micro: bigint): string {
  const sign = micro < 0n ? "-" : "";
  const abs = micro < 0n ? -micro : micro;
  const fraction = (abs % MICRO_PER_USDC).toString().padStart(6, "0").replace(/0+$/, "");
  return `${sign}${abs / MICRO_PER_USDC}${fraction ? `.${fraction}` : ""}`;
}
