/**
 * What an operation's input must satisfy beyond its schema (one field against another, an address
 * against its chain) and can be checked without upstream data. The paid route checks it before it
 * looks at the payment, as it does the schema, so a caller learns of a mistake without paying; a
 * handler receives only input that passes its operation's rule.
 */
import { isAddress } from "@solana/kit";
import { ApiError, invalidField } from "../../http/errors.js";
import type { PaidRoute } from "../contract.js";
import type { OperationName, RequestOf } from "../operation-types.js";

export type InputRule<N extends OperationName> = (input: RequestOf<N>) => ApiError | undefined;

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const SOLANA_ADDRESS = "must be a Solana address: base58 of 32 bytes";

/** A 400 naming `field` when `address` is not of `chain`'s form (base58 of 32 bytes on Solana, 0x-hex elsewhere). */
function addressOf(chain: string, address: string, field: string): ApiError | undefined {
  if (chain === "solana") return isAddress(address) ? undefined : invalidField("body", field, SOLANA_ADDRESS);
  return EVM_ADDRESS.test(address) ? undefined : invalidField("body", field, `must be a 0x-prefixed EVM address on ${chain}`);
}

/**
 * A 400 naming each of the route's `SolanaAddress` fields that is not an address: the schema's
 * pattern admits base58 text that decodes to more or fewer than 32 bytes, which every upstream and
 * the chain's own derivations refuse (a 500 or a 502 after payment, or an empty answer charged).
 */
export function solanaAddressRefusal(route: PaidRoute, input: Record<string, unknown>): ApiError | undefined {
  const errors = route.solanaAddresses
    .filter(({ field }) => typeof input[field] === "string" && !isAddress(input[field]))
    .map(({ location, field }) => ({ location, field, message: SOLANA_ADDRESS }));
  if (!errors.length) return undefined;
  return new ApiError(400, "invalid_request", errors.map((e) => `${e.field}: ${e.message}`).join("; "), { errors });
}

export const inputRules: { [N in OperationName]?: InputRule<N> } = {
  smartmoneyTokenScreener: ({ market_cap_min: min, market_cap_max: max }) =>
    min !== undefined && max !== undefined && max < min
      ? invalidField("body", "market_cap_max", "must not be below market_cap_min")
      : undefined,
  smartmoneyFlowIntel: ({ chain, token_address }) => addressOf(chain, token_address, "token_address"),
  smartmoneyWalletIntel: ({ chain, address }) => addressOf(chain, address, "address"),
  bridgeQuote: ({ from_chain, from_address }) =>
    from_address === undefined ? undefined : addressOf(from_chain, from_address, "from_address"),
};
