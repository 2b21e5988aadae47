/**
 * A fingerprint of the code that runs the service: its own files (server/ and lib/, tests left out), the
 * network table it reads at run time, and its locked dependencies. Cached upstream values are what
 * this code produced, and during a rolling deploy instances of two versions share one Redis: a
 * value stored by one version could be read by the other in a shape it does not expect (a 500 at
 * best, a wrong paid answer at worst). Keyed by this fingerprint, each version reads only its own
 * entries. It is computed, not a number to bump by hand, because a forgotten bump fails silently.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

const isTest = (path: string) => /\.test\.[cm]?[jt]s$/.test(path);

/** sha256 of each file's path (relative to `root`) and content, in path order; 16 hex digits. */
export function fingerprintFiles(root: string, paths: string[]): string {
  const hash = createHash("sha256");
  for (const path of [...paths].sort())
    hash
      .update(`${relative(root, path)}\0`)
      .update(readFileSync(path))
      .update("\0");
  return hash.digest("hex").slice(0, 16);
}

/** Every file under `dir` but tests, as paths. */
export function codeFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !isTest(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

let cached: string | undefined;

/** This checkout's fingerprint, computed once per process. */
export function codeFingerprint(): string {
  cached ??= fingerprintFiles(ROOT, [
    ...codeFiles(join(ROOT, "server")),
    ...codeFiles(join(ROOT, "lib")),
    join(ROOT, "generated/networks.json"),
    join(ROOT, "package-lock.json"),
  ]);
  return cached;
}
