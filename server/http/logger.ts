/**
 * The process logger: JSON lines on stdout, written asynchronously so logging never blocks a
 * request. No credential reaches a log line: secret-named fields are censored by path, and an
 * error's message and stack (which may quote an upstream's or a facilitator's answer) are scrubbed.
 */
import pino, { type DestinationStream, type LevelWithSilent, type Logger } from "pino";
import { redactSecrets } from "./redact.js";

const SECRET_NAMES = ["apiKey", "authorization", "password", "secret", "token"];
const SECRET_PATHS = [...SECRET_NAMES, ...SECRET_NAMES.map((name) => `*.${name}`), "*.headers.authorization", '*.headers["x-api-key"]'];

function scrubbedError(error: Error): Record<string, unknown> {
  const serialized = pino.stdSerializers.err(error) as unknown as Record<string, unknown>;
  for (const field of ["message", "stack"]) if (typeof serialized[field] === "string") serialized[field] = redactSecrets(serialized[field]);
  return serialized;
}

export function createLogger(level: LevelWithSilent = "info", destination?: DestinationStream): Logger {
  if (level === "silent") return pino({ level });
  return pino({ level, redact: SECRET_PATHS, serializers: { err: scrubbedError } }, destination ?? pino.destination({ sync: false }));
}
