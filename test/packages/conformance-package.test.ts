// The conformance suite as a stranger installs it: packed, installed from its tarball into an empty project outside
// this repository, and run there by its command against the service started as `npm start` starts it (exit 0, JUnit
// and the coverage report written), and against the same service behind a proxy that breaks the contract (exit 1,
// the violated check named).
import { existsSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, type ServiceProcess, startService } from "../support/processes.js";
import { type StrangerProject, strangerProject } from "../support/stranger-project.js";

let project: StrangerProject;
let service: ServiceProcess;
let broken: { server: Server; url: string };

/** The service, but every 402 without its x402 v2 challenge (`PAYMENT-REQUIRED`). */
async function withoutV2Challenge(target: string): Promise<{ server: Server; url: string }> {
  const port = await freePort();
  const server = createServer((req, res) => {
    const upstream = request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      const headers = { ...answer.headers };
      if (answer.statusCode === 402) delete headers["payment-required"];
      res.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${port}` };
}

/** Runs the installed command (without blocking this process, which serves the broken proxy); its exit code and output. */
const conformance = (args: string[]) =>
  project.runAsync(join(project.dir, "node_modules/.bin/defi-intel-conformance"), args);

describe("the conformance package, installed into an empty project", () => {
  beforeAll(async () => {
    project = strangerProject(["conformance"]);
    service = await startService({ LEDGER_DB: ":memory:" });
    broken = await withoutV2Challenge(service.url);
  }, 300_000);

  afterAll(async () => {
    broken?.server.close();
    await service?.kill();
    project?.remove();
  });

  it("installs with its own dependencies only, at the versions this repository pins", () =>
    expect(project.strayDependencies("@defi-intel/conformance")).toEqual([]));

  it("passes against the service, writing JUnit and the coverage report", async () => {
    const { code, output } = await conformance([
      "--base-url",
      service.url,
      "--registry-url",
      service.registryUrl,
      "--network",
      "base",
    ]);
    expect(code, output).toBe(0);
    expect(output).toMatch(/Coverage: statuses [\d.]+ %/);
    for (const file of ["conformance-junit.xml", "conformance-coverage.json", "conformance-coverage.md"])
      expect(existsSync(join(project.dir, "results", file)), file).toBe(true);
  }, 240_000);

  it("fails a run that exercises less of the contract than --min-coverage asks, naming the dimension", async () => {
    const args = [
      "--base-url",
      service.url,
      "--network",
      "base",
      "--junit",
      "results/gated.xml",
      "--min-coverage",
      "100",
      // what this run asserts needs no fuzzing depth: a few runs per property keep it short
      "--runs",
      "3",
    ];
    const { code, output } = await conformance(args);
    expect(code, output).toBe(1);
    expect(output).toMatch(/coverage of statuses [\d.]+ % \(\d+\/\d+\) is below --min-coverage 100 %/);
  }, 240_000);

  it("fails against a service that breaks the contract, naming the check", async () => {
    const { code, output } = await conformance([
      "--base-url",
      broken.url,
      "--network",
      "base",
      "--junit",
      "results/broken.xml",
      "--runs",
      "3",
    ]);
    expect(code, output).toBe(1);
    expect(output).toMatch(/Failed:\n[\s\S]*POST \/defi\/tvl · base · 402 challenge/);
  }, 240_000);

  it("says what it cannot do without the contract repository, and exits 1", async () => {
    const { code, output } = await conformance(["--target", "server", "--network", "base"]);
    expect(code).not.toBe(0);
    expect(output).toContain("only the contract repository has");
  }, 120_000);
});
