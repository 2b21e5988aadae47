// Compiles contracts/*.sol with solc-js into the artifacts the local-chain settlement loads
// (abi, bytecode, deployedBytecode), so that neither the server nor the tests need solc at run time.
// `node scripts/compile-contracts.mjs` writes them; `--check` fails when a committed one is stale.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import solc from "solc";

const root = fileURLToPath(new URL("..", import.meta.url));
const OUTPUT = "server/analytics/payments/settlement/backends/local-chain";
// The local chain runs hardhat with the same hardfork (see local-chain/evm.ts).
const EVM_VERSION = "cancun";

/** Every contract of contracts/*.sol → `{ file, json }`, the artifact's path (repository-relative) and text. */
export function compileContracts() {
  const sources = Object.fromEntries(
    readdirSync(`${root}contracts`)
      .filter((name) => name.endsWith(".sol"))
      .map((name) => [`contracts/${name}`, { content: readFileSync(`${root}contracts/${name}`, "utf8") }]),
  );
  const input = {
    language: "Solidity",
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: EVM_VERSION,
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
  return Object.values(output.contracts).flatMap((contracts) =>
    Object.entries(contracts).map(([name, c]) => ({
      file: `${OUTPUT}/${name}.json`,
      json: `${JSON.stringify(
        {
          contractName: name,
          compiler: `solc ${solc.version()}`,
          evmVersion: EVM_VERSION,
          abi: c.abi,
          bytecode: `0x${c.evm.bytecode.object}`,
          deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
        },
        null,
        2,
      )}\n`,
    })),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes("--check");
  const stale = compileContracts().filter(({ file, json }) => {
    if (check) return !existsSync(`${root}${file}`) || readFileSync(`${root}${file}`, "utf8") !== json;
    writeFileSync(`${root}${file}`, json);
    console.log(`wrote ${file}`);
    return false;
  });
  for (const { file } of stale) console.error(`${file} is stale: run node scripts/compile-contracts.mjs`);
  process.exit(stale.length ? 1 : 0);
}
