/**
 * The public client API: typed, paying analytics client (Solana at the root, Base, SKALE; x402 v2,
 * or v1 where only v1 is offered), typed registry client, payers, the paying `fetch` underneath,
 * typed errors and amount helpers.
 *
 * @example
 * import { createAnalyticsClient, evmPayer } from "./client/index.js";
 * const analytics = createAnalyticsClient({ baseUrl: "http://localhost:4021", network: "base", payer: evmPayer(account), maxPerCallUsd: "0.05" });
 * const { envelope, receipt, paid } = await analytics.call("/defi/tvl", { chain: "solana", limit: 3 });
 */
export { formatUsdc, microAmount, usdToMicro } from "./amounts.js";
export {
  type AnalyticsClient,
  type AnalyticsClientOptions,
  createAnalyticsClient,
  type FreePaths,
  type GetPath,
  type LookupPaths,
  type PaidPath,
  type PaidPaths,
  type PaidResult,
  type PaymentOutcome,
  type PaymentQuery,
  type PaymentStatus,
  type PostPath,
} from "./analytics.js";
export {
  type ErrorBody,
  HttpError,
  type PaymentErrorReason,
  PaymentRefusedError,
  PaymentRejectedError,
  type RefusalReason,
} from "./errors.js";
export { KEY_VARIABLES, KeyError, keySource, payerFromKeys } from "./keys.js";
export { NETWORKS, type NetworkChoice, networkLabel, type X402Network } from "./networks.js";
export { type BlockhashSource, evmPayer, offlineBlockhash, type Payer, solanaPayer } from "./payers.js";
export {
  createPayingFetch,
  type PayingFetch,
  type PayingFetchOptions,
  type PaymentQuote,
  type PaymentRecord,
  type ProtocolChoice,
} from "./paying-fetch.js";
export { createRegistryClient, type RegistryClient, type RegistryPath } from "./registry.js";
export {
  decodeReceipt,
  type ExactPayload,
  type PaymentHeaderName,
  type PaymentRequirements,
  type PaymentRequirementsV2,
  type PaymentTerms,
  type Receipt,
  type Requirement,
  type SettlementReceipt,
  type SettlementReceiptV2,
  termsOf,
  type X402Version,
} from "./x402/types.js";
