// docs/payments.md draws the payment's stages as the code defines them (server/analytics/payments/ledger/stages.ts):
// its transition table has one row per transition with the same stages, guards, actors and meaning, and its diagram
// one edge per stage a transition leaves.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { TRANSITIONS } from "../../server/analytics/payments/ledger/stages.js";

const page = readFileSync(fileURLToPath(new URL("../../docs/payments.md", import.meta.url)), "utf8");
const ticks = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map(([, name]) => name as string);
const list = (cell: string) =>
  cell
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

/** The page's transition table: a row per transition, by name. */
function tableRows() {
  const rows = new Map<string, { from: string[]; to: string; guards: string[]; by: string[]; means: string }>();
  for (const line of page.split("\n")) {
    const cells = line
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim());
    const [name] = ticks(cells[0] ?? "");
    if (cells.length !== 6 || !name || !(name in TRANSITIONS)) continue;
    const [, from = "", to = "", guards = "", by = "", means = ""] = cells;
    rows.set(name, { from: ticks(from), to: ticks(to)[0] ?? "", guards: list(guards), by: list(by), means });
  }
  return rows;
}

/** The diagram's edges, as `from → to: transition`. */
function diagramEdges(): string[] {
  const diagram = /```mermaid\n([\s\S]*?)```/.exec(page)?.[1] ?? "";
  return [...diagram.matchAll(/^\s*(\S+) --> (\S+): (\w+)$/gm)].map(([, from, to, name]) => `${from} → ${to}: ${name}`);
}

describe("docs/payments.md's stages", () => {
  it("has the transition table of the code, row for row", () => {
    const expected = Object.entries(TRANSITIONS).map(([name, t]) => [
      name,
      { from: [...t.from], to: t.to, guards: [...t.guards], by: [...t.by], means: t.means },
    ]);
    expect([...tableRows()]).toEqual(expected);
  });

  it("draws an edge for each stage each transition leaves, and no other", () => {
    const expected = Object.entries(TRANSITIONS).flatMap(([name, t]) =>
      t.from.length ? t.from.map((from) => `${from} → ${t.to}: ${name}`) : [`[*] → ${t.to}: ${name}`],
    );
    expect(diagramEdges().sort()).toEqual(expected.sort());
  });
});
