// A challenge's signed offers within one second are the very bytes signed for the first call of that second (the
// memo changes nothing a client sees); a new second signs anew, with its own validity; each origin keeps its own key id.
import { describe, expect, it } from "vitest";
import type { PaymentRequirementsV2 } from "../types.js";
import { decodeCompact } from "./jws.js";
import { receiptKeyOf } from "./key.js";
import { receiptSigner } from "./offer-receipt.js";

const key = receiptKeyOf({}, "RECEIPT_SIGNING_KEY", "testnet") as NonNullable<ReturnType<typeof receiptKeyOf>>;
const accept = (network: string, amount: string) =>
  ({
    scheme: "exact",
    network,
    asset: "0xasset",
    payTo: "0xpay",
    amount,
    maxTimeoutSeconds: 60,
    extra: {},
  }) as unknown as PaymentRequirementsV2;
const challengeAt = (url: string) => ({
  resource: { url },
  accepts: [accept("eip155:84532", "1000"), accept("eip155:1187947933", "1000")],
});
const offersOf = (required: object) =>
  (
    (required as { extensions?: unknown }).extensions as {
      "offer-receipt": { info: { offers: { signature: string; acceptIndex: number }[] } };
    }
  )["offer-receipt"].info.offers;
const payloadOf = (signature: string) => decodeCompact(signature)?.payload as { validUntil: number; network: string };

describe("signed offers", () => {
  it("are the same bytes for every call of one second, and signed anew with the next second's validity", () => {
    const signer = receiptSigner(key, { port: 3000 });
    const second = 1_800_000_000;
    const first = offersOf(signer.withOffers(challengeAt("http://a.example/defi/tvl"), second * 1000 + 5));
    const again = offersOf(signer.withOffers(challengeAt("http://a.example/defi/tvl"), second * 1000 + 990));
    expect(again).toEqual(first);
    expect(first.map((o) => payloadOf(o.signature).network)).toEqual(["eip155:84532", "eip155:1187947933"]);
    const next = offersOf(signer.withOffers(challengeAt("http://a.example/defi/tvl"), (second + 1) * 1000));
    expect(next.map((o) => payloadOf(o.signature).validUntil)).toEqual([second + 61, second + 61]);
    expect(first.map((o) => payloadOf(o.signature).validUntil)).toEqual([second + 60, second + 60]);
  });

  it("differ by what they offer and where: another resource, origin or amount is signed for itself", () => {
    const signer = receiptSigner(key, { port: 3000 });
    const now = 1_800_000_000_000;
    const a = offersOf(signer.withOffers(challengeAt("http://a.example/defi/tvl"), now));
    const b = offersOf(signer.withOffers(challengeAt("http://b.example/defi/tvl"), now));
    const priced = { ...challengeAt("http://a.example/defi/tvl"), accepts: [accept("eip155:84532", "2000")] };
    const c = offersOf(signer.withOffers(priced, now));
    expect(decodeCompact(b[0]?.signature as string)?.header.kid).not.toBe(
      decodeCompact(a[0]?.signature as string)?.header.kid,
    );
    expect(decodeCompact(c[0]?.signature as string)?.payload).toMatchObject({ amount: "2000" });
    expect(c[0]?.signature).not.toBe(a[0]?.signature);
  });
});
