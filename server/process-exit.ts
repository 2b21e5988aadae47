/**
 * Leaving the process while threads run native code. `process.exit()` tears every worker thread down wherever it is,
 * and a thread torn down inside a call of a node-addon-api addon (the EVM recovery's keccak and secp256k1) aborts the
 * whole process (exit 134, with `FATAL ERROR: Error::Error napi_create_reference` or `terminate called after throwing
 * an instance of 'Napi::Error'`) instead of exiting with the code asked for. Each such thread registers how to end it
 * between two calls; `exitProcess` ends them first, for a bounded time.
 */
type Stop = () => Promise<void>;

const stops = new Set<Stop>();

/** `stop` runs before the process exits through `exitProcess`; the function returned takes it back. */
export function stopBeforeExit(stop: Stop): () => void {
  stops.add(stop);
  return () => void stops.delete(stop);
}

/**
 * Ends the registered threads, then exits with `code`. A thread still busy after `withinMs` (a stuck native call) is
 * left to `process.exit`: the exit is bounded, whatever its code turns out to be.
 */
export async function exitProcess(code: number, withinMs = 2_000): Promise<never> {
  let bound: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    bound = setTimeout(resolve, withinMs);
  });
  await Promise.race([Promise.allSettled([...stops].map((stop) => stop())), late]);
  clearTimeout(bound);
  process.exit(code);
}
