// `npm run pack [-- NAME...]`: builds the installable packages into dist/packages/NAME/ and packs each into a tarball
// in dist/packages/. Each package's manifest is packages/NAME/package.json; its `build` field (dropped from what is
// published) names the sources to bundle (`entries`: output file → TypeScript entry), the entry whose type
// declarations ship (`declarations`), files of this repository to copy in at the same relative path (`copy`), and
// packages the code finds by name at run time rather than imports (`resolved`: a command it starts, assets it serves),
// and modules left out (`unavailable`: source → why), which the package's code may load only when asked for what it
// cannot do, and which then fail with that sentence.
// A module that reads a file of this repository by a path relative to itself (`new URL("../generated/…",
// import.meta.url)`) reads it, once bundled, by the path from the bundle to the copy of that file.
// The bundles are ESM JavaScript for Node (no tsx at run time) with every npm package left external; a package's
// dependencies are exactly the packages its bundles import, at the versions this repository pins.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = join(root, "dist/packages");
const rootManifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const pinned = { ...rootManifest.devDependencies, ...rootManifest.dependencies };
const builtins = new Set(builtinModules);

/** `@scope/name/sub/path` → `@scope/name`; `name/sub` → `name`. */
const packageOf = (specifier) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

/** The npm packages a bundle imports (its externals that are not Node's own). */
function importedPackages(metafile) {
  const names = new Set();
  for (const output of Object.values(metafile.outputs))
    for (const { path, external } of output.imports)
      if (external && !path.startsWith("node:") && !builtins.has(path)) names.add(packageOf(path));
  return [...names].sort();
}

/** Rewrites each `new URL("./…" or "../…", import.meta.url)` of a module to the same file as the bundle in `folder` sees it. */
function filesFrom(folder) {
  const relativeUrl = /new URL\((["`])(\.{1,2}\/[^"`]*)\1,\s*import\.meta\.url\)/g;
  return {
    name: "files-from-the-bundle",
    setup(builder) {
      builder.onLoad({ filter: /\.(ts|mjs|js)$/ }, (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        const text = readFileSync(args.path, "utf8");
        if (!text.includes("import.meta.url")) return undefined;
        const contents = text.replace(relativeUrl, (_, quote, path) => {
          const fromBundle = relative(join(root, folder), resolve(dirname(args.path), path))
            .split(sep)
            .join("/");
          return `new URL(${quote}${fromBundle.startsWith(".") ? "" : "./"}${fromBundle}${quote}, import.meta.url)`;
        });
        return { contents, loader: args.path.endsWith(".ts") ? "ts" : "js" };
      });
    },
  };
}

/** Each module of `unavailable` (a source path → why) replaced by one that throws why, once loaded. */
function leftOut(unavailable = {}) {
  const why = new Map(Object.entries(unavailable).map(([source, reason]) => [join(root, source), reason]));
  return {
    name: "left-out",
    setup(builder) {
      builder.onResolve({ filter: /^\.{1,2}\// }, (args) => {
        const path = resolve(args.resolveDir, args.path).replace(/\.js$/, ".ts");
        return why.has(path) ? { path, namespace: "left-out" } : undefined;
      });
      builder.onLoad({ filter: /.*/, namespace: "left-out" }, (args) => ({
        contents: `throw new Error(${JSON.stringify(why.get(args.path))});`,
        loader: "js",
      }));
    },
  };
}

/** The folders holding the package's commands (`bin`), relative to the package. */
const commandFolders = (manifest) =>
  new Set(Object.values(manifest.bin ?? {}).map((file) => dirname(file.replace(/^\.\//, ""))));

/** The bundles of the entries in one folder: one build, so that each module's file paths are rewritten for that folder. */
async function bundleFolder(manifest, dir, folder, entries) {
  const entryPoints = Object.fromEntries(
    entries.map(([file, source]) => [file.replace(/\.js$/, ""), join(root, source)]),
  );
  const { metafile } = await build({
    entryPoints,
    outdir: dir,
    outExtension: { ".js": ".js" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20.19",
    packages: "external",
    metafile: true,
    logLevel: "warning",
    plugins: [leftOut(manifest.build.unavailable), filesFrom(folder)],
    // The bundles in a folder of the package's commands are run by npm's bin links, so by Node; a library's are not.
    ...(commandFolders(manifest).has(folder) ? { banner: { js: "#!/usr/bin/env node" } } : {}),
  });
  return importedPackages(metafile);
}

async function bundle(manifest, dir) {
  const byFolder = new Map();
  for (const [file, source] of Object.entries(manifest.build.entries))
    byFolder.set(dirname(file), [...(byFolder.get(dirname(file)) ?? []), [file, source]]);
  const imported = await Promise.all(
    [...byFolder].map(([folder, entries]) => bundleFolder(manifest, dir, folder, entries)),
  );
  return [...new Set(imported.flat())];
}

/** The type declarations of `entry` and everything it imports, under types/ at their paths in this repository. */
function declarations(entry, dir) {
  const types = join(dir, "types");
  const tsc = join(root, "node_modules/.bin/tsc");
  const options = ["--declaration", "--emitDeclarationOnly", "--rootDir", root, "--outDir", types, "--skipLibCheck"];
  const compiler = [
    "--module",
    "NodeNext",
    "--moduleResolution",
    "NodeNext",
    "--target",
    "ES2022",
    "--strict",
    "--types",
    "node",
  ];
  execFileSync(tsc, [...options, ...compiler, "--resolveJsonModule", "--verbatimModuleSyntax", join(root, entry)], {
    cwd: root,
    stdio: "inherit",
  });
  // Declarations of the documents' types are sources already (.d.ts): tsc leaves them where they are.
  cpSync(join(root, "generated/types"), join(types, "generated/types"), { recursive: true });
}

async function buildPackage(name) {
  const manifest = JSON.parse(readFileSync(join(root, "packages", name, "package.json"), "utf8"));
  const dir = join(out, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const imported = [...new Set([...(await bundle(manifest, dir)), ...(manifest.build.resolved ?? [])])].sort();
  const missing = imported.filter((dependency) => !pinned[dependency]);
  if (missing.length)
    throw new Error(`${manifest.name} imports ${missing.join(", ")}, which this repository does not pin`);
  if (manifest.build.declarations) declarations(manifest.build.declarations, dir);
  for (const path of manifest.build.copy ?? []) cpSync(join(root, path), join(dir, path), { recursive: true });
  for (const file of readdirSync(join(root, "packages", name)).filter((f) => f !== "package.json"))
    cpSync(join(root, "packages", name, file), join(dir, file), { recursive: true });
  cpSync(join(root, "LICENSE"), join(dir, "LICENSE"));
  const { build: _build, ...published } = manifest;
  published.engines = rootManifest.engines;
  published.dependencies = Object.fromEntries(imported.map((dependency) => [dependency, pinned[dependency]]));
  published.files = [...new Set([...(published.files ?? []), ...(manifest.build.copy ?? []), "LICENSE"])];
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(published, null, 2)}\n`);
  const tarball = execFileSync("npm", ["pack", "--silent", "--pack-destination", out], {
    cwd: dir,
    encoding: "utf8",
  }).trim();
  return join(out, tarball.split("\n").at(-1));
}

const all = readdirSync(join(root, "packages")).filter((name) =>
  existsSync(join(root, "packages", name, "package.json")),
);
const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !all.includes(name));
if (unknown.length) {
  console.error(`npm run pack: no package ${unknown.join(", ")} (packages: ${all.join(", ")})`);
  process.exit(2);
}
mkdirSync(dirname(out), { recursive: true });
for (const name of asked.length ? asked : all) console.log(await buildPackage(name));
