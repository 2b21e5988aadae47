/**
 * Readable text for envelopes and tables: the signal and its confidence first, then the insight,
 * then `data`, where every list of objects becomes an aligned table and every other value a
 * `dotted.key  value` line.
 */

const MAX_CELL = 48;

function cell(value: unknown): string {
  const text =
    value === null || value === undefined ? "-" : typeof value === "object" ? JSON.stringify(value) : String(value);
  return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text;
}

/** Aligned columns; numeric columns are right-aligned. */
export function table(headers: string[], rows: unknown[][], indent = "  "): string[] {
  const cells = rows.map((row) => headers.map((_, i) => cell(row[i])));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((row) => (row[i] as string).length)));
  const isNumber = (v: unknown) =>
    typeof v === "number" || typeof v === "bigint" || (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v));
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((row) => isNumber(row[i])));
  const line = (values: string[]) =>
    `${indent}${values.map((v, i) => (numeric[i] ? v.padStart(widths[i] as number) : v.padEnd(widths[i] as number))).join("  ")}`.trimEnd();
  return [line(headers), ...cells.map(line)];
}

/** `{a: {b: 1}, c: 2}` → `[["a.b", 1], ["c", 2]]`; arrays stay values. */
function flatten(value: Record<string, unknown>, prefix = ""): [string, unknown][] {
  return Object.entries(value).flatMap(([key, v]) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? flatten(v as Record<string, unknown>, `${prefix}${key}.`)
      : [[`${prefix}${key}`, v]],
  );
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** `data` as lines: scalars as `key  value`, lists of objects as tables under their key. */
export function formatData(data: Record<string, unknown>): string[] {
  const scalars: [string, unknown][] = [];
  const lists: string[] = [];
  for (const [key, value] of flatten(data, "data.")) {
    if (Array.isArray(value) && value.length > 0 && value.every(isRecord)) {
      const rows = value.map((item) => Object.fromEntries(flatten(item)));
      const headers = [...new Set(rows.flatMap((row) => Object.keys(row)))];
      lists.push(
        "",
        `${key} (${value.length})`,
        ...table(
          headers,
          rows.map((row) => headers.map((h) => row[h])),
        ),
      );
    } else scalars.push([key, Array.isArray(value) ? value.map(cell).join(", ") || "(none)" : value]);
  }
  const width = Math.max(0, ...scalars.map(([key]) => key.length));
  return [...scalars.map(([key, value]) => `${key.padEnd(width)}  ${cell(value)}`), ...lists];
}

export interface EnvelopeLike {
  signal: string;
  confidence: number;
  insight?: string | null;
  sources?: string[];
  model_used?: string | null;
  latency_ms?: number;
  data: unknown;
}

export function formatEnvelope(envelope: EnvelopeLike): string[] {
  const about = [
    envelope.sources?.join(", "),
    envelope.model_used ?? "no model",
    envelope.latency_ms === undefined ? "" : `${envelope.latency_ms} ms`,
  ];
  return [
    `signal      ${envelope.signal}   (confidence ${envelope.confidence.toFixed(2)})`,
    `insight     ${envelope.insight ?? "(none: the model did not answer; raw data only)"}`,
    `sources     ${about.filter(Boolean).join(" · ")}`,
    "",
    ...(isRecord(envelope.data) ? formatData(envelope.data) : [cell(envelope.data)]),
  ];
}
