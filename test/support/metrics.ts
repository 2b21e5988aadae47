/** Reading a Prometheus text page in tests. */

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/**
 * The sum of the samples of `name` whose labels include every one of `labels` (0 when none does),
 * e.g. `metricValue(page, "x402_payments_total", { outcome: "served" })` over every network.
 */
export function metricValue(page: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of page.split("\n")) {
    const [, metric, labelText = "", value] = SAMPLE.exec(line) ?? [];
    if (metric !== name) continue;
    const found = Object.fromEntries([...labelText.matchAll(LABEL)].map(([, key, text]) => [key, text]));
    if (Object.entries(labels).every(([key, text]) => found[key] === text)) sum += Number(value);
  }
  return sum;
}
