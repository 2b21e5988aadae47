/** A service logger whose lines tests can read. */
import { Writable } from "node:stream";
import type { LevelWithSilent, Logger } from "pino";
import { createLogger } from "../../server/http/logger.js";

/** The process logger at `level`, writing into memory: `text()` is everything written, `lines()` each line parsed. */
export function capturedLogger(level: LevelWithSilent = "info"): {
  logger: Logger;
  text(): string;
  lines(): Record<string, unknown>[];
} {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const logger = createLogger(level, sink);
  const text = () => {
    logger.flush();
    return chunks.join("");
  };
  return {
    logger,
    text,
    lines: () =>
      text()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
  };
}
