// The import graph of the repository's code: no runtime import cycle, the analytics layers importing
// in one direction, and production code free of test code.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CODE = ["server", "client", "lib", "conformance", "scripts", "bench", "test"];

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "node_modules" ? [] : sourceFiles(path);
    return /\.(ts|mts|mjs)$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

interface Import {
  specifier: string;
  /** `import type` / `export type`: erased from the emitted module, so it cannot make a runtime cycle. */
  typeOnly: boolean;
}

/** Every module a file imports or re-exports, statically or with `import()`. */
function importsOf(file: string): Import[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  const found: Import[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const allTypes =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (!clause.name &&
            named !== undefined &&
            ts.isNamedImports(named) &&
            named.elements.every((e) => e.isTypeOnly)));
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: allTypes });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteral(argument)) found.push({ specifier: argument.text, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A relative specifier as the file it names (NodeNext spells `.ts` files with `.js`). */
function resolveLocal(from: string, specifier: string): string | undefined {
  const target = resolve(dirname(from), specifier);
  return [target.replace(/\.js$/, ".ts"), target, `${target}.ts`].find(
    (path) => existsSync(path) && statSync(path).isFile(),
  );
}

const files = CODE.flatMap((dir) => sourceFiles(join(ROOT, dir)));
const rel = (file: string) => relative(ROOT, file).split(sep).join("/");
/** Local imports: from file to file, both relative to the root. */
const edges = files.flatMap((file) =>
  importsOf(file).flatMap(({ specifier, typeOnly }) => {
    const to = specifier.startsWith(".") ? resolveLocal(file, specifier) : undefined;
    return to ? [{ from: rel(file), to: rel(to), typeOnly }] : [];
  }),
);

/** Strongly connected components of more than one file, or a file importing itself (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)?.includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const TEST_LIBRARIES = ["vitest", "supertest"];

const inDir = (dir: string) => (file: string) => file.startsWith(`server/analytics/${dir}/`);
const isTest = (file: string) => file.endsWith(".test.ts") || file.startsWith("test/");

describe("the import graph", () => {
  it("reads the repository's code", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(edges.length).toBeGreaterThan(files.length);
  });

  it("has no cycle of runtime imports", () => {
    const runtime = new Map<string, string[]>(files.map((file) => [rel(file), []]));
    for (const { from, to, typeOnly } of edges) if (!typeOnly) runtime.get(from)?.push(to);
    expect(cycles(runtime)).toEqual([]);
  });

  it("keeps rules and providers apart: both build on markets/, which imports neither", () => {
    const rules = inDir("rules");
    const providers = inDir("providers");
    const markets = inDir("markets");
    const crossing = edges.filter(({ from, to }) => (rules(from) && providers(to)) || (providers(from) && rules(to)));
    expect(crossing).toEqual([]);
    expect(edges.filter(({ from, to }) => markets(from) && !isTest(from) && !markets(to))).toEqual([]);
    // Rules are pure: beside markets/ they read only the contract's operation types.
    const ruleImports = edges.filter(({ from, to }) => rules(from) && !isTest(from) && !rules(to) && !markets(to));
    expect(
      ruleImports.map(({ to }) => to).filter((to) => to !== "server/analytics/contract/operation-types.ts"),
    ).toEqual([]);
  });

  it("keeps test code, the conformance suite and the commands' scripts out of production code", () => {
    const production = files.map(rel).filter((file) => /^(server|client|lib)\//.test(file) && !isTest(file));
    const offending = production.flatMap((file) =>
      importsOf(join(ROOT, file))
        .map(({ specifier }) => specifier)
        .filter((s) => {
          if (TEST_LIBRARIES.includes(s)) return true;
          const target = s.startsWith(".") ? rel(resolveLocal(join(ROOT, file), s) ?? s) : "";
          return (
            isTest(target) ||
            target.startsWith("conformance/") ||
            target.startsWith("scripts/") ||
            target.startsWith("test/")
          );
        })
        .map((s) => `${file} → ${s}`),
    );
    expect(offending).toEqual([]);
  });
});
