// The client as a stranger installs it: packed (npm run pack), installed from its tarball into an empty project outside
// this repository (so nothing resolves from this repository's node_modules), and used there: a plain ESM program pays
// one call on Base and one on Solana against the service started as `npm start` starts it, and a TypeScript program
// using the client's types type-checks with tsc (and a misuse of them does not).
import { generateKeyPairSigner } from "@solana/kit";
import { generatePrivateKey } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServiceProcess, startService } from "../support/processes.js";
import { rootManifest, type StrangerProject, strangerProject } from "../support/stranger-project.js";

let project: StrangerProject;
let service: ServiceProcess;

const PAYING = `
import { createAnalyticsClient, keySource, offlineBlockhash, payerFromKeys } from "@defi-intel/client";
const keys = keySource(process.env);
const solana = async () => ({ blockhash: async () => offlineBlockhash() });
const results = {};
for (const [network, family] of [["base", "evm"], ["solana", "svm"]]) {
  const payer = await payerFromKeys(family, keys, solana);
  const client = createAnalyticsClient({ baseUrl: process.env.SERVICE_URL, network, payer });
  const result = await client.call("/defi/tvl", { chain: "solana", limit: 3 });
  results[network] = { status: result.status, version: result.version, receipt: result.receipt, paid: String(result.paid),
    paymentId: result.paymentId, signal: result.envelope.signal };
}
console.log(JSON.stringify(results));
`;

const TYPED = `
import { createAnalyticsClient, evmPayer, type AnalyticsClientOptions, type PaidResult, type Payer } from "@defi-intel/client";
declare const payer: Payer;
const options: AnalyticsClientOptions = { baseUrl: "http://localhost:4021", network: "base", payer, maxPerCallUsd: "0.05" };
const client = createAnalyticsClient(options);
export async function tvl(): Promise<string> {
  const result = await client.call("/defi/tvl", { chain: "solana", limit: 3 });
  const status: 200 | 206 = result.status;
  const signal: string = result.envelope.signal;
  return \`\${status} \${signal} \${result.paymentId ?? ""}\`;
}
export type Tvl = PaidResult<unknown>;
export const make = evmPayer;
`;

const tsconfig = {
  compilerOptions: {
    module: "NodeNext",
    moduleResolution: "NodeNext",
    target: "ES2022",
    strict: true,
    noEmit: true,
    types: ["node"],
  },
  include: ["*.ts"],
};

describe("the client package, installed into an empty project", () => {
  beforeAll(async () => {
    project = strangerProject(["client"], ["typescript", "@types/node"]);
    project.write("tsconfig.json", JSON.stringify(tsconfig));
    service = await startService({ LEDGER_DB: ":memory:" });
  }, 300_000);

  afterAll(async () => {
    await service?.kill();
    project?.remove();
  });

  it("installs with its own dependencies only, at the versions this repository pins, for this repository's Node range", () => {
    expect(project.strayDependencies("@defi-intel/client")).toEqual([]);
    expect(project.manifest("@defi-intel/client").engines).toEqual(rootManifest.engines);
  });

  it("pays one call on Base and one on Solana against the running service", async () => {
    project.write("pay.mjs", PAYING);
    const solana = await generateKeyPairSigner(true);
    const secret = new Uint8Array(await crypto.subtle.exportKey("pkcs8", solana.keyPair.privateKey)).slice(-32);
    const publicKey = new Uint8Array(await crypto.subtle.exportKey("raw", solana.keyPair.publicKey));
    const output = project.run(process.execPath, ["pay.mjs"], {
      SERVICE_URL: service.url,
      X402_EVM_PRIVATE_KEY: generatePrivateKey(),
      X402_SOLANA_SECRET_KEY: JSON.stringify([...secret, ...publicKey]),
    });
    const results = JSON.parse(output);
    const networks: [string, string][] = [
      ["base", "eip155:84532"],
      ["solana", "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1"],
    ];
    for (const [network, caip2] of networks) {
      expect(results[network], network).toMatchObject({
        status: 200,
        version: 2,
        paid: "1000",
        paymentId: expect.stringMatching(/^pay_/),
      });
      expect(results[network].receipt).toMatchObject({ success: true, network: caip2 });
    }
  });

  it("type-checks a program that uses its types, and refuses one that misuses them", () => {
    project.write("typed.ts", TYPED);
    project.write("misused.ts", `${TYPED}\nawait client.call("/no/such/path");\n`);
    // one compiler run over both: the errors are all the misuse's
    let errors = "";
    try {
      project.run(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "."]);
    } catch (error) {
      errors = String((error as { stdout?: string }).stdout);
    }
    expect(errors).toMatch(/misused\.ts.*\/no\/such\/path/s);
    expect(errors).not.toContain("typed.ts");
  });
});
