/** Number formatting for briefs: compact, the way a person would say the figure. */

/** 61_234_567_890 → "$61.2B"; 8_412_330 → "$8.4M"; 12_300 → "$12.3k"; 18.44 → "$18.44". */
export function usd(value: number): string {
  const sign = value < 0 ? "-" : "";
  const v = Math.abs(value);
  if (v >= 1e9) return `${sign}$${(v / 1e9).toFixed(1)}B`;
  if (v >= 1e6) return `${sign}$${(v / 1e6).toFixed(1)}M`;
  if (v >= 1e4) return `${sign}$${(v / 1e3).toFixed(1)}k`;
  return `${sign}$${v.toFixed(2)}`;
}

/** 71.564 → "71.6%". */
export function pct(value: number, digits = 1): string {
  return `${value.toFixed(digits)}%`;
}
