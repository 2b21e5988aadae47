/** The process logger: JSON lines on stdout, written asynchronously so logging never blocks a request. */
import pino, { type Logger } from "pino";

export function createLogger(level = process.env.LOG_LEVEL ?? "info"): Logger {
  if (level === "silent") return pino({ level });
  return pino({ level, redact: ["*.apiKey", "*.authorization", "*.headers.authorization"] }, pino.destination({ sync: false }));
}
