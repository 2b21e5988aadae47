/**
 * `npm start`: the analytics service on PORT (default 4021) and the registry on REGISTRY_PORT
 * (default 4022), on embedded defaults; with `DATABASE_URL` both keep their state in PostgreSQL
 * (one pool per process), and with `WORKERS` (cluster.ts) N processes serve them. The
 * configuration is read once, first, before the services' modules load (start.ts): a value that
 * cannot work, or a port already taken, stops the process with one plain line naming the variable
 * and exit code 2.
 */
// The command-line contract every command of the README and docs/ keeps (`--help`; an unknown argument exits 2 before anything runs).
import { commandLine } from "../lib/command-line.mjs";
import { ConfigError, loadServiceConfig, type ServiceConfig } from "./config/index.js";
import { StoreUnavailable } from "./db/unavailable.js";

const USAGE = `usage: npm start

The analytics service on PORT (4021) and the agent registry on REGISTRY_PORT (4022), configured by environment
variables only (docs/configuration.md lists them): on embedded SQLite and memory by default; with DATABASE_URL
and CACHE_URL on PostgreSQL and Redis; with WORKERS=N (or auto) as N processes. A setting that cannot work stops it
with one line naming the variable (exit 2). SIGTERM or SIGINT stops it gracefully.

  --help   this text`;

/** A refusal to start: one line on stderr, exit code 2 (never a JSON log line with a stack). */
function refuse(line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(2);
}

commandLine(USAGE);
let config: ServiceConfig;
try {
  config = loadServiceConfig(process.env);
} catch (error) {
  if (error instanceof ConfigError) refuse(error.message);
  throw error;
}
// Only now the services' modules: a configuration that cannot work is refused before any of them loads.
const { start } = await import("./start.js");
start(config).catch((error) => {
  if (error instanceof ConfigError) refuse(error.message);
  // Anything else that stops the start (a facilitator that does not answer, a database out of reach): one line too,
  // naming the variable when a store is what failed; exit 1, as it may start once that is back.
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof StoreUnavailable && error.cause instanceof Error ? ` (${error.cause.message})` : "";
  process.stderr.write(
    `failed to start: ${error instanceof StoreUnavailable ? `DATABASE_URL: ${message}${cause}` : message}\n`,
  );
  process.exit(1);
});
