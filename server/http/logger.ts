/**
 * The process logger: JSON lines on stdout, written asynchronously so logging never blocks a
 * request. No credential reaches a log line: secret-named fields are censored, and an error's
 * message and stack (which may quote an upstream's or a facilitator's answer) are scrubbed.
 */
import pino, { type DestinationStream, type LevelWithSilent, type Logger } from "pino";
import { redactSecrets } from "./redact.js";

const SECRET_NAMES = new Set(["apiKey", "authorization", "password", "secret", "token", "x-api-key"]);
export const CENSORED = "[Redacted]";

const nested = (value: unknown): value is Record<string, unknown> =>
  value !== null &&
  typeof value === "object" &&
  !Array.isArray(value) &&
  !ArrayBuffer.isView(value) &&
  !(value instanceof Error);

/**
 * A line's fields with every secret-named one censored, at the top level and two levels down (a
 * `config.apiKey`, a `request.headers.authorization`), as a copy only when there is one to censor.
 * Written here instead of pino's `redact` paths, whose wildcards cost more than writing the line itself,
 * on every request; this walk copies nothing when no field is secret-named
 * (docs/decisions/0009-log-redaction-by-hand.md).
 */
export function censored(fields: Record<string, unknown>, depth = 0): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key in fields) {
    const value = fields[key];
    const replaced = SECRET_NAMES.has(key) ? CENSORED : depth < 2 && nested(value) ? censored(value, depth + 1) : value;
    if (replaced !== value) {
      copy ??= { ...fields };
      copy[key] = replaced;
    }
  }
  return copy ?? fields;
}

function scrubbedError(error: Error): Record<string, unknown> {
  const serialized = pino.stdSerializers.err(error) as unknown as Record<string, unknown>;
  for (const field of ["message", "stack"])
    if (typeof serialized[field] === "string") serialized[field] = redactSecrets(serialized[field]);
  return serialized;
}

export function createLogger(level: LevelWithSilent = "info", destination?: DestinationStream): Logger {
  if (level === "silent") return pino({ level });
  return pino(
    { level, formatters: { log: (fields) => censored(fields) }, serializers: { err: scrubbedError } },
    destination ?? pino.destination({ sync: false }),
  );
}
