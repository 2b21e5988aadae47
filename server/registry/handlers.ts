/**
 * One handler per registry operation, keyed by operationId. A handler reads the store and returns
 * the 200 body with how long caches may keep it; an invalid name or an unknown agent is thrown as
 * the shared `ApiError`. The Express wiring is in app.ts.
 */
import type { operations } from "../../generated/types/registry.js";
import { entityNotFound, invalidField } from "../http/errors.js";
import { checkName } from "./names.js";
import type { RegistryStore } from "./store.js";

/** The read operations over the store; the `Service_` ones (info, document, docs page) are in service-documents.ts. */
export type OperationId = Extract<keyof operations, `Agents_${string}`>;
type Params<Id extends OperationId> = operations[Id]["parameters"];
type Ok<Id extends OperationId> = operations[Id]["responses"][200]["content"]["application/json"];

/**
 * The request after validation: path parameters decoded, query coerced. Every query parameter of
 * the registry declares a default, which the validator fills in, so all are present.
 */
export type Input<Id extends OperationId> = {
  path: NonNullable<Params<Id>["path"]>;
  query: Required<NonNullable<Params<Id>["query"]>>;
};

/** A 200 body and its `max-age` in seconds. */
export type Answer<Id extends OperationId> = { body: Ok<Id>; maxAge: number };

export type Handler<Id extends OperationId> = (input: Input<Id>, store: RegistryStore) => Promise<Answer<Id>>;

/** Cache lifetimes documented on the spec's `Cached` response. */
export const MAX_AGE = { list: 30, document: 300, catalog: 3600 } as const;

export const handlers: { [Id in OperationId]: Handler<Id> } = {
  Agents_listAgents: async ({ query }, store) => ({
    body: { agents: await store.listAgents(query.limit) },
    maxAge: MAX_AGE.list,
  }),

  Agents_agentExists: async ({ path }, store) => {
    const name = wellFormed(path.name);
    const holder = await store.findPassport(name.normalized);
    const free = name.status === "reserved" ? "reserved" : "none";
    return {
      body: {
        name: path.name,
        normalized: name.normalized,
        exists: holder !== undefined,
        available: holder === undefined && name.status === "valid",
        source: holder ? (holder.kind ?? "native") : free,
        record: holder ? { name: holder.name, ownerWallet: holder.ownerWallet } : null,
      },
      maxAge: MAX_AGE.list,
    };
  },

  Agents_primaryAlias: async ({ path }, store) => {
    const passport = await found((name) => store.findPassport(name), "agent", path.name);
    const displayName = passport.displayName ?? passport.name;
    return {
      body: {
        name: passport.name,
        displayName,
        passportHandle: `@${passport.name}`,
        displayHandle: `@${displayName}`,
        primarySol: passport.primarySol ?? null,
        source: passport.kind ?? "native",
      },
      maxAge: MAX_AGE.document,
    };
  },

  Agents_getManifest: async ({ path }, store) => ({
    body: await found((name) => store.manifest(name), "agent manifest", path.name),
    maxAge: MAX_AGE.document,
  }),

  // openapi-typescript types the open card object (`unevaluatedProperties: {}`) as Record<string, never>.
  Agents_identityCard: async ({ path }, store) => ({
    body: (await found((name) => store.card(name), "identity card", path.name)) as Ok<"Agents_identityCard">,
    maxAge: MAX_AGE.document,
  }),

  Agents_listSkills: async (_input, store) => ({ body: { families: await store.skills() }, maxAge: MAX_AGE.catalog }),
};

/** The name's verdict, or the 400 naming the rule it breaks. */
function wellFormed(raw: string): { status: "valid" | "reserved"; normalized: string } {
  const check = checkName(raw);
  if (check.status === "invalid") throw invalidField("path", "name", check.message);
  return check;
}

/** What `lookup` holds under the normalized name, or a 404 naming the agent. */
async function found<T>(lookup: (name: string) => Promise<T | undefined>, what: string, raw: string): Promise<T> {
  const { normalized } = wellFormed(raw);
  const value = await lookup(normalized);
  if (value === undefined) throw entityNotFound(what, normalized);
  return value;
}
