/**
 * What an operation's input must satisfy beyond its schema (one field against another, an address
 * against its chain) and can be checked without upstream data. The paid route checks it before it
 * looks at the payment, as it does the schema, so a caller learns of a mistake without paying; a
 * handler receives only input that passes its operation's rule.
 */
import { type ApiError, invalidField } from "../../http/errors.js";
import type { OperationName, RequestOf } from "../operation-types.js";

export type InputRule<N extends OperationName> = (input: RequestOf<N>) => ApiError | undefined;

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** A 400 naming `field` when `address` is not of `chain`'s form (base58 on Solana, 0x-hex elsewhere). */
function addressOf(chain: string, address: string, field: string): ApiError | undefined {
  if (chain === "solana")
    return BASE58_ADDRESS.test(address) ? undefined : invalidField("body", field, "must be a base58 address on solana");
  return EVM_ADDRESS.test(address) ? undefined : invalidField("body", field, `must be a 0x-prefixed EVM address on ${chain}`);
}

export const inputRules: { [N in OperationName]?: InputRule<N> } = {
  smartmoneyTokenScreener: ({ market_cap_min: min, market_cap_max: max }) =>
    min !== undefined && max !== undefined && max < min
      ? invalidField("body", "market_cap_max", "must not be below market_cap_min")
      : undefined,
  smartmoneyFlowIntel: ({ chain, token_address }) => addressOf(chain, token_address, "token_address"),
  smartmoneyWalletIntel: ({ chain, address }) => addressOf(chain, address, "address"),
  bridgeQuote: ({ from_chain, from_address }) =>
    from_address !== undefined && from_address.startsWith("0x") !== (from_chain !== "solana")
      ? invalidField("body", "from_address", `is not a ${from_chain} address`)
      : undefined,
};
