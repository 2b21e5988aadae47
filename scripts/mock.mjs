// `npm run mock`: Prism serving both generated 3.1 documents in the foreground, analytics on 127.0.0.1:4010 and
// the registry on 127.0.0.1:4011 (MOCK_PORT, MOCK_REGISTRY_PORT override them). The examples make the answers
// realistic; ask for other statuses with `Prefer: code=402` (or 206, 404, ...). --verbose streams Prism's log.
// SIGINT/SIGTERM stop both Prism processes by their PIDs; if one dies, the other is stopped and this exits 1.
import { MOCK_PORTS, startPrismTarget } from "../conformance/prism.js";

const ports = {
  analytics: Number(process.env.MOCK_PORT) || MOCK_PORTS.analytics,
  registry: Number(process.env.MOCK_REGISTRY_PORT) || MOCK_PORTS.registry,
};
const mock = await startPrismTarget(ports, { echo: process.argv.includes("--verbose") }).catch((error) => {
  console.error(`npm run mock: ${error.message}`);
  process.exit(1);
});
console.log(`Prism mock ready: analytics ${mock.target.analyticsUrl}, registry ${mock.target.registryUrl} (Ctrl-C stops it)`);

let stopping = false;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  await mock.stop();
  process.exit(code);
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));
Promise.race(mock.processes.map((p) => p.exited.then((code) => ({ p, code })))).then(({ p, code }) => {
  if (stopping) return;
  console.error(`Prism on ${p.url} (pid ${p.pid}) exited with ${code}; stopping the other`);
  stop(1);
});
