/** The top self-time entries of a V8 CPU profile, to say where a request's time goes. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number } };

export function topEntries(dir: string, count = 12): { share: number; frame: string }[] {
  const [file] = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"));
  if (!file) return [];
  const profile = JSON.parse(readFileSync(join(dir, file), "utf8")) as {
    nodes: Node[];
    samples: number[];
    timeDeltas: number[];
  };
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = (nodes.get(id) as Node).callFrame;
    if (frame.functionName === "(idle)") return;
    const where = frame.url
      ? `${frame.url.replace(/^.*\/node_modules\//, "").replace(/^.*\/main\//, "")}:${frame.lineNumber + 1}`
      : "";
    const key = `${frame.functionName || "(anonymous)"} ${where}`.trim();
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([frame, time]) => ({ share: Math.round((1000 * time) / total) / 10, frame }));
}
