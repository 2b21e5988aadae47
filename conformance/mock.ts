/**
 * The mock of both services, as `npm run mock` and the suite's `prism` target run it: Prism on each
 * 3.1 document (on a free port of 127.0.0.1, stopped by its PID), each behind its front
 * (mock-front.ts) on the given ports. If anything fails to start, what did start is stopped.
 */
import type { Server } from "node:http";
import { mockFront } from "./mock-front.js";
import { documentPath, freePort, type PrismProcess, startPrism } from "./prism.js";
import type { RunningTarget } from "./targets.js";

/** Fixed ports of `npm run mock` (the suite's own mock takes free ports). */
export { MOCK_PORTS } from "./mock-ports.js";

const SERVICES = ["analytics", "registry"] as const;

function listen(app: ReturnType<typeof mockFront>, port: number, host: string): Promise<Server> {
  // Express 5 hands a failure to listen (EADDRINUSE) to the callback.
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, (error?: Error) =>
      error
        ? reject(new Error(`cannot start the mock on ${host}:${port}: ${(error as NodeJS.ErrnoException).code}`))
        : resolve(server),
    );
  });
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

export async function startMock(
  ports?: { analytics: number; registry: number },
  options: { echo?: boolean } = {},
): Promise<RunningTarget & { processes: PrismProcess[] }> {
  const host = "127.0.0.1";
  const processes: PrismProcess[] = [];
  const servers: Server[] = [];
  const stop = async () => {
    await Promise.all([...servers.map(close), ...processes.map((p) => p.stop())]);
  };
  try {
    const started = await Promise.allSettled(
      SERVICES.map(async (service) => startPrism(documentPath(service), await freePort(), options)),
    );
    for (const result of started) if (result.status === "fulfilled") processes.push(result.value);
    const failed = started.find((result) => result.status === "rejected");
    if (failed) throw failed.reason;
    for (const [index, service] of SERVICES.entries()) {
      const app = mockFront(service, (processes[index] as PrismProcess).url);
      servers.push(await listen(app, ports?.[service] ?? 0, host));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const urlOf = (server: Server) => {
    const address = server.address();
    return `http://${host}:${address && typeof address === "object" ? address.port : 0}`;
  };
  return {
    target: { kind: "prism", analyticsUrl: urlOf(servers[0] as Server), registryUrl: urlOf(servers[1] as Server) },
    processes,
    stop,
  };
}
