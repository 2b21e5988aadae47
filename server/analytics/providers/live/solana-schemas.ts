/**
 * Shapes of the Solana JSON-RPC answers the live adapters read (docs/upstreams.md §4): accounts in
 * `jsonParsed` and `base64` encodings, parsed transactions and signature pages. Anything else is
 * an upstream error, never a wrong answer.
 */
import { isAddress } from "@solana/addresses";
import { z } from "zod";
import { numeric } from "./http.js";

/** An account address, as the derivations that take it require (base58 of 32 bytes). */
const address = z.string().refine(isAddress, "not a Solana address");

export const base64Data = z
  .tuple([z.string(), z.literal("base64")])
  .transform(([b64]) => new Uint8Array(Buffer.from(b64, "base64")));

/** A `jsonParsed` account: `data` is parsed for known programs, `[base64, "base64"]` otherwise. */
export const parsedAccount = z.object({ owner: z.string(), lamports: z.number(), data: z.unknown() });
export const base64Account = z.object({ owner: z.string(), data: base64Data });

export const mintData = z.object({
  program: z.enum(["spl-token", "spl-token-2022"]),
  parsed: z.object({
    type: z.literal("mint"),
    info: z.object({
      decimals: z.number().int().nonnegative(),
      supply: z.string().regex(/^\d+$/),
      mintAuthority: z.string().nullish(),
      freezeAuthority: z.string().nullish(),
    }),
  }),
});
export const tokenAccountData = z.object({
  parsed: z.object({
    info: z.object({ mint: address, owner: z.string(), tokenAmount: z.object({ uiAmountString: numeric }) }),
  }),
});

export const uiTokenBalance = z.object({
  mint: address,
  owner: z.string().nullish(),
  uiTokenAmount: z.object({ uiAmountString: numeric }),
});
export const transactionSchema = z
  .object({
    slot: z.number(),
    blockTime: z.number().nullable(),
    meta: z.object({
      err: z.unknown().nullable(),
      fee: z.number(),
      preBalances: z.array(z.number()),
      postBalances: z.array(z.number()),
      preTokenBalances: z.array(uiTokenBalance).nullish(),
      postTokenBalances: z.array(uiTokenBalance).nullish(),
    }),
    transaction: z.object({
      signatures: z.array(z.string()).min(1),
      message: z.object({
        accountKeys: z.array(z.object({ pubkey: z.string() })).min(1),
        instructions: z.array(z.object({ programId: z.string() })),
      }),
    }),
  })
  .nullable();
export type Transaction = NonNullable<z.infer<typeof transactionSchema>>;

export const signaturesSchema = z.array(
  z.object({ signature: z.string(), slot: z.number(), err: z.unknown().nullable(), blockTime: z.number().nullable() }),
);
export type Signature = z.infer<typeof signaturesSchema>[number];
