/**
 * The key that signs offers and receipts (`RECEIPT_SIGNING_KEY`): an Ed25519 private key, as a PKCS#8
 * PEM (`openssl genpkey -algorithm ed25519`) or as a JWK (`{"kty":"OKP","crv":"Ed25519","d":…,"x":…}`).
 * It signs statements only and holds no money: it is never a payment key. Without one the testnet
 * profile makes a development key at start-up; the mainnet profile signs nothing.
 */
import { createHash, createPrivateKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import type { Logger } from "pino";
import { ConfigError, type Env, present } from "../../../../config/env.js";

export interface ReceiptKey {
  privateKey: KeyObject;
  /** The same key in libsodium's form (seed, then public key), which signs (jws.ts). */
  secretKey: Buffer;
  /** The public half as a JWK, as `/.well-known/did.json` publishes it. */
  publicJwk: { kty: "OKP"; crv: "Ed25519"; x: string };
  /** The key's fragment in the DID document and in every JWS `kid`: `receipts-` and the start of its RFC 7638 thumbprint. */
  fragment: string;
  /** Made at start-up for lack of a configured key: signatures last as long as the process. */
  development: boolean;
  /** Epoch ms since which this key signs: when the last retired key stopped (none before a first rotation). */
  validFrom?: number;
  /** The keys that signed before this one (`RECEIPT_RETIRED_KEYS`), still published so that their receipts verify. */
  retired: RetiredKey[];
}

/** A key that signed offers and receipts before the current one: its public half, and when it was current. */
export interface RetiredKey {
  publicJwk: ReceiptKey["publicJwk"];
  fragment: string;
  /** Epoch ms, when the operator said. */
  validFrom?: number;
  /** Epoch ms: when it stopped signing. */
  validUntil: number;
}

/** RFC 7638: SHA-256 of the required members in lexicographic order, no white space; the fragment takes its start. */
const fragmentOf = (x: string) =>
  `receipts-${createHash("sha256")
    .update(JSON.stringify({ crv: "Ed25519", kty: "OKP", x }))
    .digest("base64url")
    .slice(0, 12)}`;

function receiptKey(privateKey: KeyObject, development: boolean, retired: RetiredKey[]): ReceiptKey {
  const { x, d } = privateKey.export({ format: "jwk" });
  const secretKey = Buffer.concat([Buffer.from(d as string, "base64url"), Buffer.from(x as string, "base64url")]);
  const publicJwk = { kty: "OKP" as const, crv: "Ed25519" as const, x: x as string };
  const validFrom = retired.length ? Math.max(...retired.map((key) => key.validUntil)) : undefined;
  return {
    privateKey,
    secretKey,
    publicJwk,
    fragment: fragmentOf(x as string),
    development,
    ...(validFrom !== undefined && { validFrom }),
    retired,
  };
}

const BASE64URL_KEY = /^[A-Za-z0-9_-]{43}$/;

/**
 * `RECEIPT_RETIRED_KEYS`: the keys that signed before the current one, comma-separated, each its public key `x` (as
 * `/.well-known/did.json` lists it) and when it was current as an ISO 8601 interval, the start optional:
 * `<x>@<until>` or `<x>@<from>/<until>`.
 */
export function retiredKeysOf(env: Env, name: string): RetiredKey[] {
  const raw = present(env, name);
  if (!raw) return [];
  return raw.split(",").map((entry) => {
    const [x = "", interval = ""] = entry.trim().split("@");
    const [from, until] = interval.includes("/") ? interval.split("/") : [undefined, interval];
    const validUntil = Date.parse(until ?? "");
    const validFrom = from === undefined ? undefined : Date.parse(from);
    if (
      !BASE64URL_KEY.test(x) ||
      !Number.isFinite(validUntil) ||
      (validFrom !== undefined && !(validFrom < validUntil))
    )
      throw new ConfigError(
        `${name} must list retired keys as <x>@<until> or <x>@<from>/<until> (x: the 43-character public key of /.well-known/did.json; ISO 8601 times, from before until), got "${entry.trim()}"`,
      );
    const publicJwk = { kty: "OKP" as const, crv: "Ed25519" as const, x };
    return { publicJwk, fragment: fragmentOf(x), ...(validFrom !== undefined && { validFrom }), validUntil };
  });
}

/** A PEM (real line breaks or `\n` written out, as env files often carry them) or a JWK, parsed as an Ed25519 private key. */
function parseKey(name: string, raw: string): KeyObject {
  let key: KeyObject;
  try {
    key = raw.startsWith("{")
      ? createPrivateKey({ key: JSON.parse(raw), format: "jwk" })
      : createPrivateKey({ key: raw.replaceAll("\\n", "\n"), format: "pem" });
  } catch {
    throw new ConfigError(`${name} must be an Ed25519 private key as a PKCS#8 PEM or a JWK with "d"`);
  }
  if (key.asymmetricKeyType !== "ed25519")
    throw new ConfigError(
      `${name} must be an Ed25519 key (openssl genpkey -algorithm ed25519), got a ${key.asymmetricKeyType} key`,
    );
  return key;
}

/** The configured key; else a development key on testnet; else (mainnet) none. */
export function receiptKeyOf(
  env: Env,
  name: string,
  profile: "testnet" | "mainnet",
  retired: RetiredKey[] = [],
): ReceiptKey | undefined {
  const raw = present(env, name);
  if (raw) return receiptKey(parseKey(name, raw), false, retired);
  if (profile === "mainnet") return undefined;
  return receiptKey(generateKeyPairSync("ed25519").privateKey, true, retired);
}

/** The key as a PKCS#8 PEM, for worker processes to sign with the key their primary made. */
export const pemOf = (key: ReceiptKey): string => key.privateKey.export({ format: "pem", type: "pkcs8" }).toString();

/** Said once at start-up (by the primary of a cluster, whose workers sign with its key): the public half only. */
export function logDevelopmentKey(logger: Logger, key: ReceiptKey): void {
  logger.info(
    { publicKeyJwk: key.publicJwk, fragment: key.fragment },
    "offers and receipts are signed with a development key made at start-up (published at /.well-known/did.json); set RECEIPT_SIGNING_KEY to keep one",
  );
}
