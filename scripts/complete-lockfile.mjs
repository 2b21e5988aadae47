#!/usr/bin/env node
// `node scripts/complete-lockfile.mjs`, after any `npm install` on a machine whose registry mirror does
// not serve every platform's prebuilt binary. npm then leaves those optional packages out of
// package-lock.json, and `npm ci` refuses the lock ("Missing: <pkg>@ from lock file"). This records
// each missing platform package of an optionalDependencies list with the os/cpu/libc its name states,
// so that `npm ci` accepts the lock and skips it on other platforms exactly as npm would.
import { readFileSync, writeFileSync } from "node:fs";

const LOCK = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(LOCK, "utf8"));
const OS = ["android", "darwin", "freebsd", "linux", "netbsd", "openbsd", "sunos", "win32"];
const CPU = ["arm64", "arm", "ia32", "x64", "ppc64", "riscv64", "s390x", "loong64"];

function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p));
  const libc = parts.includes("musl") ? "musl" : parts.includes("gnu") ? "glibc" : undefined;
  return os && cpu ? { os, cpu, libc } : undefined;
}

let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = path ? `${path}/node_modules/` : "node_modules/";
    if (lock.packages[`${base}${name}`] || lock.packages[`node_modules/${name}`]) continue;
    const platform = platformOf(name);
    if (!platform)
      throw new Error(
        `${name} (optional dependency of ${path || "the project"}) is missing from the lock and names no platform`,
      );
    lock.packages[`node_modules/${name}`] = {
      version,
      cpu: [platform.cpu],
      ...(entry.dev ? { dev: true } : {}),
      ...(platform.libc ? { libc: [platform.libc] } : {}),
      optional: true,
      os: [platform.os],
    };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(
  added ? `recorded ${added} platform package(s) the registry did not serve` : "package-lock.json is complete",
);
