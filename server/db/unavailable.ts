/**
 * A store that cannot be reached right now: its connection was refused or lost, or a statement ran
 * past its timeout. Nothing the request asked for was done (or, for a commit whose reply was lost,
 * a retry finds it done): the service answers 503 `service_unavailable` (a paid route says what a
 * retry with the same payment gets) and serves again as soon as the store is back.
 */
export class StoreUnavailable extends Error {
  constructor(store: string, options?: { cause?: unknown }) {
    super(`the ${store} cannot be reached`, options);
  }
}

/** Socket errors of a connection that failed or broke. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

/**
 * PostgreSQL SQLSTATEs that say "not now" rather than "not this": connection exceptions (class 08)
 * and a server shutting down, crashed or starting up (57P01-57P03) lose the connection; too many
 * connections (53300) and a statement cancelled by its timeout (57014) come from a server that answers.
 */
const LINK_STATES = /^(08...|57P0[123])$/;
const BUSY_STATES = /^(53300|57014)$/;

/**
 * node-postgres reports a connection it lost or could not make in time, or a reply that did not come
 * within its `query_timeout` (a network partition), with these messages and no code.
 */
const LOST =
  /Connection terminated|timeout exceeded when trying to connect|connection error|Client was closed|not queryable|Query read timeout/i;

/** Whether `error` means the connection to the database is gone or cut off (the server does not answer on it). */
export function isLinkLoss(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === "string" && (SOCKET_CODES.has(code) || LINK_STATES.test(code))) return true;
  return typeof message === "string" && LOST.test(message);
}

/** Whether `error` means the database is out of reach (as opposed to a statement it refused). */
export function isConnectionLoss(error: unknown): boolean {
  const { code } = (error ?? {}) as { code?: unknown };
  return isLinkLoss(error) || (typeof code === "string" && BUSY_STATES.test(code));
}

/**
 * Whether `error` is SQLite's "database is locked" (SQLITE_BUSY, SQLITE_LOCKED and their extended codes): another
 * process held the file's write lock past the busy timeout. The transaction did nothing; the file answers again
 * once the lock is let go, so it is the store being out of reach, not a statement it refused.
 */
export function isSqliteBusy(error: unknown): boolean {
  const { code } = (error ?? {}) as { code?: unknown };
  return typeof code === "string" && /^SQLITE_(BUSY|LOCKED)/.test(code);
}
