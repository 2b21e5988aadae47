/**
 * What an operation's input must satisfy beyond its schema (one field against another, an address
 * against its chain) and can be checked without upstream data. The paid route checks it before it
 * looks at the payment, as it does the schema, so a caller learns of a mistake without paying; a
 * handler receives only input that passes its operation's rule.
 */
import { isAddress } from "@solana/addresses";
import type { FieldError } from "../../http/errors.js";
import type { PaidRoute } from "../contract/analytics-contract.js";
import type { OperationName, RequestOf } from "../contract/operation-types.js";

/** The body field an input breaks its operation's rule with, and what is wrong with it. */
export type InputRule<N extends OperationName> = (input: RequestOf<N>) => FieldError | undefined;

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const SOLANA_ADDRESS = "must be a Solana address: base58 of 32 bytes";

const bodyField = (field: string, message: string): FieldError => ({ location: "body", field, message });

/** `field`, when `address` is not of `chain`'s form (base58 of 32 bytes on Solana, 0x-hex elsewhere). */
function addressOf(chain: string, address: string, field: string): FieldError | undefined {
  if (chain === "solana") return isAddress(address) ? undefined : bodyField(field, SOLANA_ADDRESS);
  return EVM_ADDRESS.test(address) ? undefined : bodyField(field, `must be a 0x-prefixed EVM address on ${chain}`);
}

/**
 * Each of the route's `SolanaAddress` fields that is not an address, where the request carries it:
 * the schema's pattern admits base58 text that decodes to more or fewer than 32 bytes, which every
 * upstream and the chain's own derivations refuse (a 500 or a 502 after payment, or an empty answer charged).
 */
export function solanaAddressErrors(route: PaidRoute, input: Record<string, unknown>): FieldError[] {
  return route.solanaAddresses
    .filter(({ field }) => typeof input[field] === "string" && !isAddress(input[field]))
    .map(({ location, field }) => ({ location, field, message: SOLANA_ADDRESS }));
}

export const inputRules: { [N in OperationName]?: InputRule<N> } = {
  smartmoneyTokenScreener: ({ market_cap_min: min, market_cap_max: max }) =>
    min !== undefined && max !== undefined && max < min
      ? bodyField("market_cap_max", "must not be below market_cap_min")
      : undefined,
  smartmoneyFlowIntel: ({ chain, token_address }) => addressOf(chain, token_address, "token_address"),
  smartmoneyWalletIntel: ({ chain, address }) => addressOf(chain, address, "address"),
  bridgeQuote: ({ from_chain, from_address }) =>
    from_address === undefined ? undefined : addressOf(from_chain, from_address, "from_address"),
};
