// canonicalJson against RFC 8785's own vectors (the §3.2.2 sample, the §3.2.3 sorting sample, every number of
// Appendix B) and the strings the offer-receipt fix names (tab, newline, other controls, non-ASCII, emoji, a lone
// surrogate); each is also signed and checked with @x402/extensions' verifier, which must hand back the same value
// from exactly the RFC's bytes. @x402/extensions 2.27.0's own canonicalize is compared where it agrees, and where
// it does not (it escapes \b \t \n \f \r as \u00xx and lets a lone surrogate through) the difference is pinned:
// when an upgrade fixes it, that test fails and its vectors join the agreeing ones.
import { canonicalize, type JWSSignedReceipt, verifyReceiptSignatureJWS } from "@x402/extensions/offer-receipt";
import { describe, expect, it } from "vitest";
import { canonicalJson, jwsSigner, signCompact } from "./jws.js";
import { receiptKeyOf } from "./key.js";

/** RFC 8785 §3.2.2, parsed from the RFC's own JSON text, and its canonical form from §3.2.4. */
const SAMPLE = String.raw`{
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}`;
const SAMPLE_CANONICAL = String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`;

/** RFC 8785 §3.2.3: keys sorted by their UTF-16 code units. */
const SORTING = String.raw`{
  "\u20ac": "Euro Sign",
  "\r": "Carriage Return",
  "\ufb33": "Hebrew Letter Dalet With Dagesh",
  "1": "One",
  "\ud83d\ude00": "Emoji: Grinning Face",
  "\u0080": "Control",
  "\u00f6": "Latin Small Letter O With Diaeresis"
}`;
const SORTING_CANONICAL =
  '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
  '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}';

/** RFC 8785 Appendix B: IEEE 754 bit patterns and how each number is written. */
const NUMBERS: [bits: string, canonical: string][] = [
  ["0000000000000000", "0"],
  ["8000000000000000", "0"],
  ["0000000000000001", "5e-324"],
  ["8000000000000001", "-5e-324"],
  ["7fefffffffffffff", "1.7976931348623157e+308"],
  ["ffefffffffffffff", "-1.7976931348623157e+308"],
  ["4340000000000000", "9007199254740992"],
  ["c340000000000000", "-9007199254740992"],
  ["4430000000000000", "295147905179352830000"],
  ["44b52d02c7e14af5", "9.999999999999997e+22"],
  ["44b52d02c7e14af6", "1e+23"],
  ["44b52d02c7e14af7", "1.0000000000000001e+23"],
  ["444b1ae4d6e2ef4e", "999999999999999700000"],
  ["444b1ae4d6e2ef4f", "999999999999999900000"],
  ["444b1ae4d6e2ef50", "1e+21"],
  ["3eb0c6f7a0b5ed8c", "9.999999999999997e-7"],
  ["3eb0c6f7a0b5ed8d", "0.000001"],
  ["41b3de4355555553", "333333333.3333332"],
  ["41b3de4355555554", "333333333.33333325"],
  ["41b3de4355555555", "333333333.3333333"],
  ["41b3de4355555556", "333333333.3333334"],
  ["41b3de4355555557", "333333333.33333343"],
  ["becbf647612f3696", "-0.0000033333333333333333"],
  ["43143ff3c1cb0959", "1424953923781206.2"],
];
const numberOf = (bits: string) => Buffer.from(bits, "hex").readDoubleBE(0);

/** Strings and how RFC 8785 §3.2.2.2 writes them. */
const STRINGS: [name: string, value: string, canonical: string][] = [
  ["tab", "a\tb", '"a\\tb"'],
  ["newline", "a\nb", '"a\\nb"'],
  ["backspace, form feed, carriage return", "\b\f\r", '"\\b\\f\\r"'],
  ["other controls, as lowercase \\u00xx", "\u0000\u000b\u001f", '"\\u0000\\u000b\\u001f"'],
  ["DEL, solidus, quote and backslash", '\u007f/"\\', '"\u007f/\\"\\\\"'],
  ["non-ASCII", "Grüße, €, \ufb33", '"Grüße, €, \ufb33"'],
  ["an emoji (a surrogate pair)", "\ud83d\ude00", '"\ud83d\ude00"'],
];

/** The controls RFC 8785 writes with a two-character escape, which x402 2.27.0's canonicalize writes as \u00xx. */
const SHORT_ESCAPED = /[\b\t\n\f\r]/;

describe("canonicalJson (RFC 8785)", () => {
  it("writes the RFC's §3.2.2 sample and §3.2.3 sorting sample as the RFC does", () => {
    expect(canonicalJson(JSON.parse(SAMPLE))).toBe(SAMPLE_CANONICAL);
    expect(canonicalJson(JSON.parse(SORTING))).toBe(SORTING_CANONICAL);
  });

  it("writes every number of Appendix B, and the literals 1E30, 4.50, 2e-3, 1e21, 0.000001 and -0", () => {
    for (const [bits, canonical] of NUMBERS) expect(canonicalJson(numberOf(bits)), bits).toBe(canonical);
    const literals = JSON.parse("[1E30, 4.50, 2e-3, 1e21, 0.000001, 1e-7, -0]");
    expect(canonicalJson(literals)).toBe("[1e+30,4.5,0.002,1e+21,0.000001,1e-7,0]");
  });

  it("escapes strings as §3.2.2.2 says: two-character escapes for \\b \\t \\n \\f \\r, others as they are", () => {
    for (const [name, value, canonical] of STRINGS) expect(canonicalJson(value), name).toBe(canonical);
    expect(canonicalJson({ "\t": "\n" })).toBe('{"\\t":"\\n"}');
  });

  it("refuses what JCS has no form for: a lone surrogate (value or key), NaN, Infinity, undefined in an array", () => {
    for (const lone of ["\ud800", "x\udc00", "\ude00\ud83d"]) {
      expect(() => canonicalJson(lone)).toThrow(/lone surrogate/);
      expect(() => canonicalJson({ [lone]: 1 })).toThrow(/lone surrogate/);
    }
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, [undefined], 1n])
      expect(() => canonicalJson(value)).toThrow(TypeError);
    expect(canonicalJson({ kept: 1, left: undefined })).toBe('{"kept":1}');
  });
});

describe("@x402/extensions 2.27.0 beside it", () => {
  it("canonicalizes the numbers, non-ASCII, emoji and other controls the same", () => {
    for (const [bits] of NUMBERS) expect(canonicalize(numberOf(bits)), bits).toBe(canonicalJson(numberOf(bits)));
    for (const [name, value] of STRINGS.filter(([, value]) => !SHORT_ESCAPED.test(value)))
      expect(canonicalize(value), name).toBe(canonicalJson(value));
  });

  it("still writes \\t and \\n as \\u0009 and \\u000a, and a lone surrogate as it is, where RFC 8785 does not", () => {
    expect(canonicalize("a\tb\nc")).toBe('"a\\u0009b\\u000ac"');
    expect(canonicalize(JSON.parse(SAMPLE))).toBe(SAMPLE_CANONICAL.replace("\\n", "\\u000a"));
    // the same order of keys; only the carriage return's escape differs
    expect(canonicalize(JSON.parse(SORTING))).toBe(SORTING_CANONICAL.replace('"\\r"', '"\\u000d"'));
    expect(canonicalize("\ud800")).toBe('"\ud800"');
  });

  it("verifies a receipt signed over the RFC's bytes and reads back the very values signed", async () => {
    const key = receiptKeyOf({}, "RECEIPT_SIGNING_KEY", "testnet") as NonNullable<ReturnType<typeof receiptKeyOf>>;
    const signer = jwsSigner(key.secretKey, "did:web:example.com#receipts-test");
    const values = {
      version: 2,
      sample: JSON.parse(SAMPLE),
      sorting: JSON.parse(SORTING),
      strings: STRINGS.map(([, value]) => value),
      numbers: NUMBERS.map(([bits]) => numberOf(bits)),
    };
    const receipt: JWSSignedReceipt = { format: "jws", signature: signCompact(values, signer) };
    const payload = Buffer.from(receipt.signature.split(".")[1] as string, "base64url").toString("utf8");
    expect(payload).toBe(canonicalJson(values));
    expect(payload).toContain(SAMPLE_CANONICAL);
    const verified = await verifyReceiptSignatureJWS(receipt, key.publicJwk);
    // -0 comes back as 0: the one value JCS does not keep.
    expect(verified).toEqual({ ...values, numbers: values.numbers.map((n) => (Object.is(n, -0) ? 0 : n)) });
  });
});
