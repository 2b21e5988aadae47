// The mock as a stranger installs it: packed, installed from its tarball into an empty project outside this
// repository, and started there by its command (npm's bin link): a paid operation answers the contract's 402 in both
// x402 versions, a payment gets the example with a mock receipt, a skill called over A2A asks for payment (the tasks'
// in-memory SQLite installed with it), and SIGTERM stops it (Prism's processes with it).
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { a2aEndpointOf, a2aRequest, skillCall, TASK_STATE, type Task, x402Of } from "../../conformance/a2a-client.js";
import { createPayer, paymentHeader } from "../../conformance/payer.js";
import { decodeHeader } from "../../lib/x402-headers.js";
import type { PaymentRequiredV2, PaymentRequirements } from "../../server/analytics/payments/x402/types.js";
import { freePort, until } from "../support/processes.js";
import { type StrangerProject, strangerProject } from "../support/stranger-project.js";

let project: StrangerProject;
let mock: ChildProcess;
let url: string;
let output = "";

describe("the mock package, installed into an empty project", () => {
  beforeAll(async () => {
    project = strangerProject(["mock"]);
    const [port, registryPort] = [await freePort(), await freePort()];
    url = `http://127.0.0.1:${port}`;
    mock = spawn(join(project.dir, "node_modules/.bin/defi-intel-mock"), [], {
      cwd: project.dir,
      env: { ...process.env, MOCK_PORT: String(port), MOCK_REGISTRY_PORT: String(registryPort) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    mock.stdout?.on("data", (chunk) => {
      output += String(chunk);
    });
    mock.stderr?.on("data", (chunk) => {
      output += String(chunk);
    });
    await until(async () => {
      if (!output.includes("Mock ready")) throw new Error(`not ready: ${output}`);
    }, 90_000);
  }, 300_000);

  afterAll(() => {
    mock?.kill("SIGKILL");
    project?.remove();
  });

  it("installs with its own dependencies only, at the versions this repository pins", () =>
    expect(project.strayDependencies("@defi-intel/mock")).toEqual([]));

  it("answers a paid call's 402 in both versions, then a payment with the example and a receipt", async () => {
    const unpaid = await fetch(`${url}/base/defi/tvl`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(unpaid.status).toBe(402);
    const v2 = decodeHeader(unpaid.headers.get("PAYMENT-REQUIRED") as string) as PaymentRequiredV2;
    const [requirement] = ((await unpaid.json()) as { accepts: PaymentRequirements[] }).accepts;
    expect(v2.accepts[0]?.network).toBe("eip155:84532");
    const headers = {
      "content-type": "application/json",
      ...(await paymentHeader(await createPayer(), 2, requirement as never, v2)),
    };
    const paid = await fetch(`${url}/base/defi/tvl`, { method: "POST", headers, body: "{}" });
    expect(paid.status).toBe(200);
    expect(((await paid.json()) as { signal: string }).signal).toEqual(expect.any(String));
    expect(decodeHeader(paid.headers.get("PAYMENT-RESPONSE") as string)).toMatchObject({
      success: true,
      simulated: true,
    });
  });

  it("sells a skill over A2A at the card's endpoint: its task asks for payment", async () => {
    const endpoint = await a2aEndpointOf(url, 10_000);
    expect(endpoint).toBe(`${url}/a2a`);
    const answer = await a2aRequest(endpoint, 10_000, "SendMessage", skillCall("defiTvl", { limit: 2 }));
    const task = answer.result?.task as Task;
    expect(task?.status?.state, JSON.stringify(answer)).toBe(TASK_STATE.inputRequired);
    expect(x402Of(task).required?.accepts.map((a) => a.network)).toContain("eip155:84532");
  });

  it("stops on SIGTERM, exiting 0", async () => {
    const exited = new Promise<number | null>((resolve) => mock.once("exit", resolve));
    mock.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
