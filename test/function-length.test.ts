// No function of the production code (server/, client/, conformance/; tests excluded) runs over 100 lines:
// a longer one is split into named steps. Each function-like node is measured alone, from its first to its last
// line, so a nested function counts on its own and also inside its parent, and a factory returning an object of
// many small methods counts as one function of their total length.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CODE = ["server", "client", "conformance"];
const MAX_LINES = 100;

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "node_modules" ? [] : sourceFiles(path);
    return name.endsWith(".ts") && !name.endsWith(".d.ts") && !name.endsWith(".test.ts") ? [path] : [];
  });
}

interface Measured {
  name: string;
  line: number;
  lines: number;
}

/** The name a reader would search for: the function's own, or the variable, property or class member holding it. */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) {
    const owner = node.parent;
    return `${ts.isClassLike(owner) && owner.name ? owner.name.text : "class"}.constructor`;
  }
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if (
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) &&
    parent.name
  ) {
    return parent.name.getText(source);
  }
  return "<anonymous>";
}

/** Every function-like node of a file with its length in lines, its JSDoc and leading comments not counted. */
function functionsOf(file: string): Measured[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: Measured[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isFunctionDeclaration(node) ||
        ts.isFunctionExpression(node) ||
        ts.isArrowFunction(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isConstructorDeclaration(node) ||
        ts.isGetAccessorDeclaration(node) ||
        ts.isSetAccessorDeclaration(node)) &&
      node.body
    ) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ name: nameOf(node, source), line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const rel = (file: string) => relative(ROOT, file).split(sep).join("/");
const files = CODE.flatMap((dir) => sourceFiles(join(ROOT, dir)));
const functions = files.flatMap((file) => functionsOf(file).map((f) => ({ ...f, file: rel(file) })));

describe("function length", () => {
  it("finds the code it measures", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(functions.length).toBeGreaterThan(500);
  });

  it(`keeps every function of server/, client/ and conformance/ within ${MAX_LINES} lines`, () => {
    const long = functions
      .filter((f) => f.lines > MAX_LINES)
      .map((f) => `${f.file}:${f.line}: ${f.name} is ${f.lines} lines`);
    expect(long).toEqual([]);
  });
});
