/**
 * `GET /.well-known/did.json`: the did:web document of the service's public origin, publishing the key
 * that signs offers and receipts (payments/x402/receipts/). A 404 where the deployment signs none.
 */
import type { RequestHandler } from "express";
import type { AnalyticsConfig } from "../../config/analytics.js";
import { ApiError } from "../../http/errors.js";
import { requestOrigin } from "../../http/origin.js";
import { didDocument } from "../payments/x402/receipts/did.js";

export function didDocumentHandler({
  receipts,
  publicBaseUrl,
}: Pick<AnalyticsConfig, "receipts" | "publicBaseUrl">): RequestHandler {
  return (req, res) => {
    if (!receipts)
      throw new ApiError(
        404,
        "not_found",
        "This deployment signs no offers or receipts (RECEIPT_SIGNING_KEY is not set).",
      );
    res.json(didDocument(requestOrigin(req, publicBaseUrl), receipts));
  };
}
