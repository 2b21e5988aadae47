/**
 * The registry's generated OpenAPI 3.1 document: the app is built from it and import records are
 * checked against its schemas, so the contract stays the single source of truth.
 */
import { loadDoc } from "../../conformance/openapi-doc.js";

export const registryDocument = loadDoc("3.1", "registry");
