// The page's script (bundled by paying-page.test.ts): the official x402 clients as a web page uses
// them, with a fresh EVM account each time. It answers what the page could read of the paid answer.
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { wrapFetchWithPayment as wrapV1 } from "x402-fetch";

async function payWith(version: 1 | 2, url: string, body: unknown) {
  const account = privateKeyToAccount(generatePrivateKey());
  const pay =
    version === 2
      ? wrapFetchWithPayment(fetch, new x402Client().register("eip155:*", new ExactEvmScheme(account)))
      : (wrapV1(fetch, account) as typeof fetch);
  try {
    const response = await pay(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const header = response.headers.get(version === 2 ? "PAYMENT-RESPONSE" : "X-PAYMENT-RESPONSE");
    const receipt = header && (version === 2 ? decodePaymentResponseHeader(header) : JSON.parse(atob(header)));
    return { status: response.status, receipt, envelope: await response.json() };
  } catch (error) {
    return { error: String(error) };
  }
}

Object.assign(globalThis, { payWith });
