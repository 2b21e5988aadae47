// The manual's links hold: every relative link of the README, CONTRIBUTING.md and docs/ names a file that exists,
// and every `#anchor` names a heading of its page, slugged as GitHub renders it; every page of docs/ that a code
// comment names exists.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import GithubSlugger from "github-slugger";
import type { Heading, Link, Nodes } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { toString as textOf } from "mdast-util-to-string";
import { describe, expect, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The repository's files matching `patterns`: tracked and new ones alike (a page being written is checked too). */
function files(...patterns: string[]): string[] {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "--", ...patterns], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return listed
    .split("\n")
    .filter((path) => path && existsSync(join(ROOT, path)) && !path.startsWith("bench/results/"));
}

/** The Markdown pages the repository publishes. */
const pages = () => files("*.md");

function walk(node: Nodes, visit: (node: Nodes) => void): void {
  visit(node);
  if ("children" in node) for (const child of node.children) walk(child, visit);
}

interface Page {
  links: { url: string; line: number }[];
  anchors: Set<string>;
}

const parsed = new Map<string, Page>();

/** A page's links and the anchors of its headings (GitHub's slugs, `-1`, `-2` for repeated titles). */
function read(path: string): Page {
  const known = parsed.get(path);
  if (known) return known;
  const tree = fromMarkdown(readFileSync(join(ROOT, path), "utf8"));
  const slugger = new GithubSlugger();
  const page: Page = { links: [], anchors: new Set() };
  walk(tree, (node) => {
    if (node.type === "heading") page.anchors.add(slugger.slug(textOf(node as Heading)));
    if (node.type === "link") page.links.push({ url: (node as Link).url, line: node.position?.start.line ?? 0 });
  });
  parsed.set(path, page);
  return page;
}

/** What is wrong with one link of `from`, or undefined when it holds. External links are not fetched (no network here). */
function brokenLink(from: string, url: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return undefined;
  const [pathPart = "", anchor] = url.split("#", 2);
  const target = pathPart ? relative(ROOT, resolve(ROOT, dirname(from), decodeURIComponent(pathPart))) : from;
  if (target.startsWith("..")) return `${url} leaves the repository`;
  if (!existsSync(join(ROOT, target))) return `${url}: no such file`;
  if (anchor === undefined) return undefined;
  if (statSync(join(ROOT, target)).isDirectory() || !target.endsWith(".md"))
    return `${url}: an anchor into a file that is not a page`;
  return read(target).anchors.has(anchor) ? undefined : `${url}: no heading #${anchor} in ${target}`;
}

describe("the manual's links", () => {
  const all = pages();

  it("finds the README, CONTRIBUTING.md and the docs pages", () => {
    expect(all).toEqual(
      expect.arrayContaining(["README.md", "CONTRIBUTING.md", "docs/architecture.md", "docs/payments.md"]),
    );
  });

  it.each(all)("%s has no dead relative link or anchor", (path) => {
    const broken = read(path)
      .links.map(({ url, line }) => ({ why: brokenLink(path, url), line }))
      .filter(({ why }) => why !== undefined)
      .map(({ why, line }) => `${path}:${line}: ${why}`);
    expect(broken).toEqual([]);
  });

  it("has every docs/ page that a comment in the code names", () => {
    // this file's own examples of dead links aside
    const code = files("*.ts", "*.mjs", "*.cjs", "*.tsp", "*.sh").filter((path) => !path.startsWith("test/docs/"));
    const named = code.flatMap((path) =>
      [...readFileSync(join(ROOT, path), "utf8").matchAll(/\bdocs\/[\w./-]+\.md\b/g)].map(([page]) => ({ path, page })),
    );
    expect(named.length).toBeGreaterThan(10);
    expect(
      named.filter(({ page }) => !existsSync(join(ROOT, page))).map(({ path, page }) => `${path}: ${page}`),
    ).toEqual([]);
  });

  it("catches a dead file, a dead anchor and a link out of the repository", () => {
    expect(brokenLink("README.md", "docs/no-such-page.md")).toMatch(/no such file/);
    expect(brokenLink("README.md", "docs/payments.md#no-such-heading")).toMatch(/no heading/);
    expect(brokenLink("docs/payments.md", "../../etc/passwd")).toMatch(/leaves the repository/);
    expect(brokenLink("README.md", "https://example.com/#anything")).toBeUndefined();
  });
});
