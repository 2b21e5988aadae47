// `npm run mock`: the mock of both services in the foreground, analytics on 127.0.0.1:4010 and the registry on
// 127.0.0.1:4011 (MOCK_PORT, MOCK_REGISTRY_PORT override them). Prism answers from the generated 3.1 documents'
// examples behind a small front (conformance/mock-front.ts) that charges like the service, in x402 v1 and v2: a paid
// operation without a payment gets the contract's 402 (resource at the mock's origin; the v2 challenge in
// PAYMENT-REQUIRED), a header that is not base64 JSON (or both PAYMENT-SIGNATURE and X-PAYMENT) a 400, and a
// well-formed payment the answer with a decodable mock receipt (`simulated: true`) of the version paid in. `Prefer: code=404` (or any
// documented status) asks for that status's example. Each front also serves /openapi.json and /docs.
// SIGINT/SIGTERM stop both Prism processes by their PIDs; if one dies, the other is stopped and this exits 1.
import { MOCK_PORTS, startMock } from "../conformance/mock.js";
import { commandLine } from "../lib/command-line.mjs";

const USAGE = `usage: npm run mock [-- --verbose]

The mock of both services, from the contract's examples (Prism behind a front that charges like the service):
  analytics  http://127.0.0.1:${MOCK_PORTS.analytics}  (MOCK_PORT)
  registry   http://127.0.0.1:${MOCK_PORTS.registry}  (MOCK_REGISTRY_PORT)

  --verbose   stream Prism's log
  --help      this text

A paid call without a payment answers the 402 challenge (x402 v1 in the body, v2 in PAYMENT-REQUIRED); pay it
(any well-formed payment for the route's network, in X-PAYMENT or PAYMENT-SIGNATURE; nothing is verified on a
chain) to get the 200 example with a mock receipt in X-PAYMENT-RESPONSE or PAYMENT-RESPONSE.
Prefer: code=206 (with a payment), or code=400, 402, 404, 500, 502 selects that documented answer.
/openapi.json and /docs serve the document and its API reference; Ctrl-C stops everything.`;

const { flags } = commandLine(USAGE, { flags: ["--verbose"] });

const ports = {
  analytics: Number(process.env.MOCK_PORT) || MOCK_PORTS.analytics,
  registry: Number(process.env.MOCK_REGISTRY_PORT) || MOCK_PORTS.registry,
};
const mock = await startMock(ports, { echo: flags.has("--verbose") }).catch((error) => {
  console.error(`npm run mock: ${error.message}`);
  process.exit(1);
});
console.log(
  `Mock ready: analytics ${mock.target.analyticsUrl} (docs ${mock.target.analyticsUrl}/docs), registry ${mock.target.registryUrl} (Ctrl-C stops it)`,
);

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
  console.error(`Prism on ${p.url} (pid ${p.pid}) exited with ${code}; stopping the mock`);
  stop(1);
});
