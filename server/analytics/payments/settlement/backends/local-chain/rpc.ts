/**
 * A loopback Solana JSON-RPC stand-in over the local litesvm chain. It answers exactly the calls
 * its users make: clients that build their payment through an RPC (x402's v1 SVM client) ask
 * `getAccountInfo` (the mint's decimals and token program), `simulateTransaction` (the compute-unit
 * estimate) and `getLatestBlockhash`; recovery asks `isBlockhashValid`, `getSignaturesForAddress`
 * and `getTransaction` (answered from the settlements that landed on this chain).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type Address, getBase64Encoder, getTransactionDecoder } from "@solana/kit";
import { FailedTransactionMetadata } from "litesvm";
import type { SvmChain } from "./svm.js";

type Params = [string, Record<string, unknown>?];

function methods(chain: SvmChain): Record<string, (params: Params) => unknown> {
  const svm = chain.litesvm;
  const context = () => ({ slot: Number(svm.getClock().slot) });
  return {
    // litesvm accepts only its latest blockhash; `expireBlockhash` makes the previous one invalid.
    isBlockhashValid: ([blockhash]) => ({ context: context(), value: blockhash === svm.latestBlockhash() }),
    getSignaturesForAddress: ([address, options]) => {
      const newestFirst = chain.landed.filter((tx) => tx.accounts.includes(address)).reverse();
      // `before`: the page after that signature, as a paging client asks for it
      const start = options?.before ? newestFirst.findIndex((tx) => tx.signature === options.before) + 1 : 0;
      return newestFirst.slice(start, start + Number(options?.limit ?? 1000)).map((tx) => ({
        signature: tx.signature,
        slot: context().slot,
        err: null,
        memo: null,
        blockTime: null,
        confirmationStatus: "confirmed",
      }));
    },
    getTransaction: ([signature]) => {
      const tx = chain.landed.find((landed) => landed.signature === signature);
      return tx
        ? {
            slot: context().slot,
            blockTime: null,
            version: 0,
            meta: { err: null, fee: 5000 },
            transaction: [tx.wire, "base64"],
          }
        : null;
    },
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

/** A JSON-RPC 2.0 server on 127.0.0.1 at a free port, answering each call with `call`. */
async function serveJsonRpc(
  call: (method: string, params: unknown[]) => Promise<unknown>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      let id: unknown = null;
      let answer: Record<string, unknown>;
      try {
        const request = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
          id: unknown;
          method: string;
          params?: unknown[];
        };
        id = request.id;
        answer = { result: await call(request.method, request.params ?? []) };
      } catch (error) {
        const { code = -32603, message = String(error) } = error as { code?: number; message?: string };
        answer = { error: { code, message } };
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

/** The Solana stand-in over the local litesvm chain. */
export function serveSolanaRpc(chain: SvmChain): Promise<{ url: string; close(): Promise<void> }> {
  const table = methods(chain);
  return serveJsonRpc(async (method, params) => {
    const answer = table[method];
    if (!answer) throw Object.assign(new Error(`${method} is not served by the local stand-in`), { code: -32601 });
    return answer(params as Params);
  });
}

/** The local EVM chain's own provider, over HTTP (for readers that take an RPC URL). */
export function serveEvmRpc(provider: { request(args: { method: string; params?: unknown[] }): Promise<unknown> }) {
  return serveJsonRpc((method, params) => provider.request({ method, params }));
}
