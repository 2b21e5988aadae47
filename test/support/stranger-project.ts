/**
 * A project of a stranger's: an empty folder under the OS's temporary folder (outside this repository, so nothing
 * resolves from its node_modules) into which this repository's packages are installed from their tarballs, as
 * `npm run pack` writes them, with the npm registry's own packages beside them (npm's cache serves what it holds).
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./processes.js";

export const rootManifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

export interface StrangerProject {
  dir: string;
  /** Runs `command` in the project; what it printed on stdout, or it throws with what it printed. */
  run(command: string, args: string[], env?: Record<string, string>): string;
  /** The same without blocking this process (which may be serving what the command calls): its exit code and output. */
  runAsync(command: string, args: string[]): Promise<{ code: number; output: string }>;
  write(file: string, text: string): void;
  /** The installed manifest of one of this repository's packages. */
  manifest(name: string): Record<string, unknown> & { dependencies: Record<string, string> };
  /** The installed package's dependencies that are not at the version this repository pins, or are tsx: none, if right. */
  strayDependencies(name: string): string[];
  remove(): void;
}

/** Packs `packages` (packages/NAME), and installs their tarballs and `extra` (names pinned as this repository pins them). */
export function strangerProject(packages: string[], extra: string[] = []): StrangerProject {
  const packed = execFileSync(process.execPath, [join(ROOT, "scripts/pack.mjs"), ...packages], {
    cwd: ROOT,
    encoding: "utf8",
  });
  const tarballs = packed.trim().split("\n");
  const dir = mkdtempSync(join(tmpdir(), "stranger-"));
  const run = (command: string, args: string[], env: Record<string, string> = {}) =>
    execFileSync(command, args, { cwd: dir, encoding: "utf8", env: { ...process.env, ...env }, stdio: "pipe" });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "stranger", private: true, type: "module" }));
  const pinned = { ...rootManifest.devDependencies, ...rootManifest.dependencies } as Record<string, string>;
  run("npm", [
    "install",
    "--no-audit",
    "--no-fund",
    "--prefer-offline",
    ...tarballs,
    ...extra.map((name) => `${name}@${pinned[name]}`),
  ]);
  const manifest = (name: string) => JSON.parse(readFileSync(join(dir, "node_modules", name, "package.json"), "utf8"));
  return {
    dir,
    run,
    runAsync: (command, args) =>
      new Promise((resolve) =>
        execFile(command, args, { cwd: dir, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
          resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
        ),
      ),
    write: (file, text) => writeFileSync(join(dir, file), text),
    manifest,
    strayDependencies: (name) =>
      Object.entries(manifest(name).dependencies as Record<string, string>)
        .filter(([dependency, version]) => dependency === "tsx" || version !== pinned[dependency])
        .map(([dependency, version]) => `${dependency}@${version}`),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
