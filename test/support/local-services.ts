// Test support: both services started once per test file (in-process, in-memory stores) and stopped after it.
import { afterAll, beforeAll } from "vitest";
import { type LocalServices, startLocalServices } from "../../scripts/local-services.js";

/** Registers the hooks; call the returned function inside tests to reach the running services. */
export function useLocalServices(env: Record<string, string> = {}): () => LocalServices {
  let services: LocalServices | undefined;
  beforeAll(async () => {
    services = await startLocalServices(env);
  });
  afterAll(() => services?.close());
  return () => {
    if (!services) throw new Error("the services are not started yet");
    return services;
  };
}
