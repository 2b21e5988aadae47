/**
 * The PostgreSQL connection of a process: one pool (node-postgres) shared by the ledger and the
 * registry, every table in one schema, statements prepared once per connection, and every lost
 * connection or timed-out statement thrown as `StoreUnavailable`.
 *
 * Client: node-postgres (`pg`) rather than `postgres`. With prepared statements the two serve the
 * ledger's writes alike, so the choice is the ecosystem's standard, with its `statement_timeout`,
 * connection timeout and pool error events. Statements must stay named (prepared once per connection):
 * an unnamed one is parsed and planned again on every call (docs/decisions/0007-pg-and-ioredis-clients.md).
 */
import pg from "pg";
import type { Logger } from "pino";
import type { DatabaseSettings } from "../config/store-settings.js";
import { isConnectionLoss, StoreUnavailable } from "./unavailable.js";

export type Row = Record<string, unknown>;

/** Runs one statement; rows come back as node-postgres types them (BIGINT and NUMERIC as strings). */
export type Query = (text: string, values?: readonly unknown[]) => Promise<Row[]>;

export interface Database {
  query: Query;
  /** `work` on one connection inside BEGIN … COMMIT; rolled back when it throws. */
  transaction<T>(work: (query: Query) => Promise<T>): Promise<T>;
  /**
   * Applies `component`'s migrations not yet applied, in order, in one transaction under an
   * advisory lock: instances starting together wait for the first, which migrates once.
   */
  migrate(component: string, migrations: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** A unique violation (SQLSTATE 23505) or foreign-key violation (23503): a statement the database refused. */
export function violation(error: unknown): "unique" | "foreign_key" | undefined {
  const code = (error as { code?: string } | null)?.code;
  return code === "23505" ? "unique" : code === "23503" ? "foreign_key" : undefined;
}

/**
 * The schema as an SQL identifier, quoted: the configuration admits lower-case names, among them
 * words SQL reserves (`user`, `order`), which unquoted would be a syntax error at start.
 */
const identifier = (name: string) => `"${name}"`;

/**
 * The connection string and the server options: the URL's own `options` (other settings, such as
 * `-c work_mem=…`), then the schema's search path. node-postgres lets a connection string's `options`
 * replace the pool's, which dropped the search path and put every table in `public`; the URL is
 * rewritten only when it has them. (The configuration refuses a URL that sets the search path itself.)
 */
function connection(settings: DatabaseSettings): { connectionString: string; options: string } {
  const ours = `-c search_path=${identifier(settings.schema)}`;
  const url = new URL(settings.url);
  const theirs = url.searchParams.getAll("options");
  if (!theirs.length) return { connectionString: settings.url, options: ours };
  url.searchParams.delete("options");
  return { connectionString: url.toString(), options: [...theirs, ours].join(" ") };
}

export function openDatabase(settings: DatabaseSettings, logger?: Logger): Database {
  const pool = new pg.Pool({
    ...connection(settings),
    max: settings.poolSize,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    statement_timeout: settings.statementTimeoutMs,
    // The server's timeout cannot report back across a network partition: past this the client gives up
    // (a second later, for the server's cancellation to arrive first), and the pool destroys the connection.
    query_timeout: settings.statementTimeoutMs + 1_000,
    // A transaction left open by a stalled caller must not hold its row locks for long.
    idle_in_transaction_session_timeout: settings.statementTimeoutMs * 2,
    keepAlive: true,
    application_name: "defi-intel",
  });
  // An idle connection the server closed (a restart) is dropped by the pool; the next query opens a new one.
  pool.on("error", (error) => logger?.warn({ err: error }, "a database connection was lost"));

  // Every statement text is a constant of the code: each gets a name, so it is prepared once per connection.
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    const name = names.get(text) ?? `s${names.size}`;
    names.set(text, name);
    return name;
  };
  const run =
    (client: pg.Pool | pg.PoolClient): Query =>
    async (text, values = []) => {
      try {
        return (await client.query({ name: nameOf(text), text, values: values as unknown[] })).rows;
      } catch (error) {
        throw isConnectionLoss(error) ? new StoreUnavailable("database", { cause: error }) : error;
      }
    };
  const query = run(pool);

  async function transaction<T>(work: (query: Query) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw isConnectionLoss(error) ? new StoreUnavailable("database", { cause: error }) : error;
    }
    const inside = run(client);
    let broken = false;
    try {
      await inside("BEGIN");
      const result = await work(inside);
      await inside("COMMIT");
      return result;
    } catch (error) {
      broken = error instanceof StoreUnavailable;
      if (!broken)
        await client.query("ROLLBACK").catch(() => {
          broken = true;
        });
      throw error;
    } finally {
      // A connection that broke mid-transaction, or missed a reply, is destroyed, never handed out again.
      client.release(broken || undefined);
    }
  }

  return {
    query,
    transaction,
    async migrate(component, migrations) {
      await transaction(async (q) => {
        await q("SELECT pg_advisory_xact_lock(hashtext($1))", [`defi-intel:migrations:${settings.schema}`]);
        await q(`CREATE SCHEMA IF NOT EXISTS ${identifier(settings.schema)}`);
        await q(
          `CREATE TABLE IF NOT EXISTS schema_migrations (
             component TEXT NOT NULL, version INTEGER NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now(),
             PRIMARY KEY (component, version))`,
        );
        const [row] = await q(
          "SELECT coalesce(max(version), 0) AS version FROM schema_migrations WHERE component = $1",
          [component],
        );
        const current = Number(row?.version ?? 0);
        if (current > migrations.length)
          throw new Error(
            `the ${component} schema is at version ${current}, newer than this code supports (${migrations.length})`,
          );
        for (const [index, sql] of migrations.entries()) {
          if (index < current) continue;
          await q(sql);
          await q("INSERT INTO schema_migrations (component, version) VALUES ($1, $2)", [component, index + 1]);
        }
      });
    },
    close: () => pool.end(),
  };
}
