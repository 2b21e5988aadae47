/**
 * A loopback Solana JSON-RPC stand-in over the local litesvm chain, for clients that build their
 * payment through an RPC (x402's v1 SVM client, reference §5.3). It answers exactly the calls they
 * make: `getAccountInfo` (the mint's decimals and token program), `simulateTransaction` (the
 * compute-unit estimate) and `getLatestBlockhash` (a blockhash this chain accepts).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type Address, getBase64Encoder, getTransactionDecoder } from "@solana/kit";
import { FailedTransactionMetadata, type LiteSVM } from "litesvm";

type Params = [string, Record<string, unknown>?];

function methods(svm: LiteSVM): Record<string, (params: Params) => unknown> {
  const context = () => ({ slot: Number(svm.getClock().slot) });
  return {
    getLatestBlockhash: () => ({
      context: context(),
      value: { blockhash: svm.latestBlockhash(), lastValidBlockHeight: context().slot + 150 },
    }),
    getAccountInfo: ([address]) => {
      const account = svm.getAccount(address as Address);
      return {
        context: context(),
        value: account.exists
          ? {
              data: [Buffer.from(account.data).toString("base64"), "base64"],
              executable: account.executable,
              lamports: Number(account.lamports),
              owner: account.programAddress,
              rentEpoch: 0,
              space: Number(account.space),
            }
          : null,
      };
    },
    // Clients simulate before they sign (`sigVerify: false`, any blockhash): checks are lifted for this call only.
    simulateTransaction: ([wire]) => {
      const tx = getTransactionDecoder().decode(getBase64Encoder().encode(wire));
      svm.withSigverify(false).withBlockhashCheck(false);
      try {
        const result = svm.simulateTransaction(tx);
        const failed = result instanceof FailedTransactionMetadata;
        const meta = result.meta();
        return {
          context: context(),
          value: {
            err: failed ? result.err().toString() : null,
            logs: meta.logs(),
            accounts: null,
            unitsConsumed: Number(meta.computeUnitsConsumed()),
            returnData: null,
          },
        };
      } finally {
        svm.withSigverify(true).withBlockhashCheck(true);
      }
    },
  };
}

/** Serves the stand-in on 127.0.0.1 at a free port. */
export async function serveSolanaRpc(svm: LiteSVM): Promise<{ url: string; close(): Promise<void> }> {
  const table = methods(svm);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      let id: unknown = null;
      let answer: Record<string, unknown>;
      try {
        const call = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: unknown; method: string; params?: Params };
        id = call.id;
        const method = table[call.method];
        answer = method
          ? { result: method(call.params ?? ([] as unknown as Params)) }
          : { error: { code: -32601, message: `${call.method} is not served by the local stand-in` } };
      } catch (error) {
        answer = { error: { code: -32603, message: error instanceof Error ? error.message : String(error) } };
      }
      res.setHeader("content-type", "application/json").end(JSON.stringify({ jsonrpc: "2.0", id, ...answer }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
