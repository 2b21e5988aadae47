/**
 * A throwaway PostgreSQL cluster of the test's own, on a free loopback port, that a test may stop
 * and start again without touching the machine's PostgreSQL: initdb into a temporary folder (as the
 * `postgres` user when the test runs as root, which PostgreSQL refuses to run as), trust
 * authentication, fsync off. Removed when closed.
 */
import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "./processes.js";

const run = promisify(execFile);

/** The server binaries of the newest PostgreSQL installed the Debian way, if any. */
export function postgresBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => join(root, v, "bin")).find((bin) => existsSync(join(bin, "initdb")));
}

export interface PostgresCluster {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startPostgresCluster(bin: string): Promise<PostgresCluster> {
  const dir = mkdtempSync(join(tmpdir(), "pg-cluster-"));
  const data = join(dir, "data");
  const port = await freePort();
  // PostgreSQL refuses to run as root: as root, the cluster belongs to the `postgres` user.
  const asRoot = userInfo().uid === 0;
  const owner = asRoot
    ? await run("id", ["-u", "postgres"]).then(async ({ stdout }) => ({
        uid: Number(stdout),
        gid: Number((await run("id", ["-g", "postgres"])).stdout),
      }))
    : undefined;
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const pg = (tool: string, args: string[]) => run(join(bin, tool), args, { ...owner, cwd: dir, timeout: 60_000 });
  await pg("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const cluster: PostgresCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: async () => {
      await pg("pg_ctl", ["-D", data, "-o", options, "-l", join(dir, "log"), "-w", "start"]);
    },
    stop: async () => {
      await pg("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
    },
    close: async () => {
      await cluster.stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}
