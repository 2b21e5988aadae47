export interface paths {
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Service info
         * @description What this service is: its version and every operation with its path.
         */
        get: operations["Service_serviceInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agent/primary-alias/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Primary alias
         * @description Display aliases of an agent, and its locked-in `.sol` alias if any. Unknown name: 404.
         */
        get: operations["Agents_primaryAlias"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List agents
         * @description Passports, newest first. `limit` defaults to 20; at most 100.
         */
        get: operations["Agents_listAgents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{name}/exists": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Name existence and availability
         * @description The authoritative availability check of a name across the shared namespace. An invalid name: 400 naming the rule.
         */
        get: operations["Agents_agentExists"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/said-card/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Identity card
         * @description The agent's identity card: public, unauthenticated JSON whose content the registry does not
         *     constrain. 404 for an unknown name, and for a registered agent that has published no card (not
         *     every agent has one: the card is imported with the agent when it has one).
         */
        get: operations["Agents_identityCard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Skill catalog
         * @description The skill catalog: families and their options; capability ids are `<familyId>:<optionId>`.
         */
        get: operations["Agents_listSkills"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * API reference (HTML)
         * @description Interactive API reference of this document: every operation with its parameters, answers and
         *     examples, and a client to try calls against this deployment. Its script and styles are served
         *     by the service itself.
         */
        get: operations["Service_docsPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/livez": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description The process is up and its event loop answers; nothing else is asked, so a dependency's outage
         *     never restarts a healthy process. Always `200` while the process runs.
         */
        get: operations["Operations_livez"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/manifest/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Agent manifest
         * @description The agent's current ERC-8004 registration document. Unknown name: 404.
         */
        get: operations["Agents_getManifest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description Prometheus metrics of this instance, in the text exposition format: requests by operation and
         *     status with their latency, the default process metrics, and the service's own families (the
         *     deployment guide's Metrics section lists them). When the deployment sets `METRICS_TOKEN`, the scrape
         *     must send `Authorization: Bearer <token>`; otherwise the page is open.
         */
        get: operations["Operations_metrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * OpenAPI document
         * @description This OpenAPI 3.1 document, with `servers` set to the deployment's public origin:
         *     `REGISTRY_PUBLIC_BASE_URL` when configured, otherwise the request's own scheme and `Host`
         *     (`X-Forwarded-*` only from proxies named in `TRUST_PROXY`); a `Host` that is not a valid
         *     host[:port] is a 400.
         */
        get: operations["Service_openApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description Whether this instance can serve now: every store, cache and settlement backend it needs is
         *     asked in parallel, each within a bound (`READINESS_TIMEOUT_MS`, default 2000 ms). `200` when
         *     every check passed; `503` naming the check that failed otherwise, so that a load balancer
         *     routes around the instance. Shared upstreams (data providers, the insight model) are not
         *     asked: their failure is a `502` or a `206` on every instance alike, and draining every
         *     instance would not help.
         */
        get: operations["Operations_readyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description `GET /api/agents` answer. */
        AgentList: {
            agents: components["schemas"]["AgentListItem"][];
        };
        /** @description A passport in the list, newest first. */
        AgentListItem: {
            /** @description Normalized agent name (the namespace key). */
            name: string;
            /** @description Address of the passport asset (NFT / core asset); one asset backs one passport. */
            assetAddress: components["schemas"]["SolanaAddress"];
            /** @description Owner wallet. */
            ownerWallet: components["schemas"]["SolanaAddress"];
            description: string;
            /**
             * Format: int64
             * @description Creation time, epoch milliseconds.
             */
            createdAt: number;
            /**
             * @description `byoa` for bring-your-own-agent passports; absent on native passports.
             * @enum {string}
             */
            kind?: "byoa";
            /** @description Original casing of a bring-your-own-agent name. */
            displayName?: string;
        };
        /**
         * @description An agent name as given in a path. Native passport names and bring-your-own-agent slugs share one
         *     namespace keyed by the normalized name, so two names that normalize alike are the same name.
         *     Normalization, applied in this order (the first rule broken is the one reported):
         *
         *     1. NFKC, then lowercase: `Ｏrbit_Scout` (fullwidth `Ｏ`) becomes `orbit_scout`.
         *     2. `_`, `.` and spaces become `-`: `orbit_scout` becomes `orbit-scout`.
         *     3. Only `a-z`, `0-9` and `-` may remain. Any other character is refused, not folded; this
         *     includes every non-ASCII letter left after NFKC, so a look-alike such as Cyrillic `а` can never
         *     stand for a Latin name or be registered beside it. The message names the character:
         *     `must use only a-z, 0-9 and the separators - _ . or space; "а" (U+0430) is not allowed`.
         *     4. 3 to 32 characters after normalization: `must be 3 to 32 characters`.
         *     5. Separators only between letters or digits, never first or last and never two in a row:
         *     `must not start or end with a separator`, `must not contain two separators in a row`.
         *     They are refused rather than trimmed or merged, so one spelling never silently stands for
         *     another.
         *
         *     A name that breaks a rule is a 400 whose `errors[0]` is `{location: "path", field: "name"}` with
         *     the rule's message. A reserved name (`ReservedName`) is valid to ask about but can never be held:
         *     the existence check answers `source: reserved`; the other endpoints answer 404.
         */
        AgentName: string;
        /** @description Owner record of an existing name. */
        AgentRecord: {
            name: string;
            ownerWallet: components["schemas"]["SolanaAddress"];
        };
        /** @description `GET /api/agent/primary-alias/{name}` answer. */
        AliasResult: {
            /** @description Normalized name. */
            name: string;
            /** @description Name in its original casing. */
            displayName: string;
            /** @description Passport handle, e.g. `@orbit-scout`. */
            passportHandle: string;
            /** @description Handle in display casing, e.g. `@Orbit-Scout`. */
            displayHandle: string;
            /** @description Locked-in name-service alias, e.g. `orbit-scout.sol`; null until one is locked in. */
            primarySol: components["schemas"]["SolAlias"] | null;
            /** @description Store that answered: `native` or `byoa`. */
            source: string;
        };
        /** @description A skill capability id, `<familyId>:<optionId>`. */
        CapabilityId: string;
        /** @description The JSON error body shared by 400, 401, 404, 405, 409, 500, 502 and 503 answers. */
        "Common.ErrorBody": {
            /** @description Stable machine code. */
            error: components["schemas"]["Common.ErrorCode"];
            /** @description One human-readable sentence; never contains stack traces or internals. */
            message: string;
            /** @description Every invalid input, present on `invalid_request`. */
            errors?: components["schemas"]["Common.FieldError"][];
            /** @description Upstream provider that failed, present on `upstream_error` (e.g. `defillama`, `nansen`). */
            provider?: string;
            /** @description Id of this request, also sent in the `X-Request-Id` response header. */
            request_id?: string;
        };
        /**
         * @description Stable machine codes of the error body.
         * @enum {string}
         */
        "Common.ErrorCode": "invalid_request" | "invalid_payload" | "not_found" | "method_not_allowed" | "unauthorized" | "upstream_error" | "internal_error" | "service_unavailable" | "payment_in_progress" | "payment_identifier_conflict";
        /** @description One invalid input, named so that a caller can fix it without reading server logs. */
        "Common.FieldError": {
            /** @description Part of the request that holds the field. */
            location: components["schemas"]["Common.FieldLocation"];
            /** @description Dotted name of the field inside its location, e.g. `limit`, `chains`, `X-PAYMENT`. */
            field: string;
            /** @description What is wrong, e.g. `must be <= 50`. */
            message: string;
        };
        /**
         * @description Where an invalid input was found.
         * @enum {string}
         */
        "Common.FieldLocation": "body" | "query" | "path" | "header";
        /** @description `GET /livez`: the process is up and answers. */
        "Common.Liveness": {
            /** @enum {string} */
            status: "ok";
        };
        /** @description `GET /readyz` answer: every check, and whether all passed. */
        "Common.Readiness": {
            /** @enum {string} */
            status: "ready" | "not_ready";
            checks: components["schemas"]["Common.ReadinessCheck"][];
        };
        /** @description One part the instance needs (a store, a cache, the settlement backend), as `GET /readyz` asked it. */
        "Common.ReadinessCheck": {
            /** @description The part: `ledger`, `registry-store`, `settlement:facilitator`, ... */
            name: string;
            /** @description Whether it answered, correctly, within the bound. */
            ok: boolean;
            /**
             * Format: int32
             * @description How long it took, or how long was waited for it.
             */
            duration_ms: number;
            /** @description Why it is not ready, e.g. `no answer within 2000 ms`; absent when `ok`. */
            error?: string;
        };
        /** @description `GET /api/agents/{name}/exists` answer: the authoritative availability check. */
        ExistenceResult: {
            /** @description The name as asked. */
            name: string;
            /** @description The name after normalization. */
            normalized: string;
            exists: boolean;
            /** @description True when the name is free, valid and not reserved. */
            available: boolean;
            source: components["schemas"]["ExistenceSource"];
            /** @description Holder of the name; null when it does not exist. */
            record: components["schemas"]["AgentRecord"] | null;
        };
        /**
         * @description Which store or namespace answered an existence check.
         * @enum {string}
         */
        ExistenceSource: "native" | "byoa" | "reserved" | "none";
        /** @description `GET /manifest/{name}` answer: the agent's current ERC-8004 registration document. */
        Manifest: {
            /** @enum {string} */
            type: "https://eips.ethereum.org/EIPS/eip-8004#registration-v1";
            name: string;
            description: string;
            /** Format: uri */
            image: string;
            services: components["schemas"]["ManifestService"][];
            /** @description Skill capability ids `<familyId>:<optionId>`; each resolves in `/api/skills`. */
            capabilities: components["schemas"]["CapabilityId"][];
            tags: string[];
            registrations: components["schemas"]["ManifestRegistration"][];
            /** @description Whether the agent accepts x402 payments. */
            x402Support: boolean;
            active: boolean;
        };
        /** @description An on-chain registration of the agent (ERC-8004 identity registry). */
        ManifestRegistration: {
            /** Format: int64 */
            agentId: number;
            /** @description Registry as `<namespace>:<chainId>:<address>`, e.g. `eip155:8453:0x…`. */
            agentRegistry: string;
        };
        /** @description A service endpoint the agent exposes. */
        ManifestService: {
            /** @description Service kind, e.g. `A2A`, `MCP`, `web`, `x402`. */
            name: string;
            /** Format: uri */
            endpoint: string;
            version?: string;
        };
        /**
         * @description One passport as stored, and one record of an import file. The endpoints read from it: the list
         *     item's fields, the owner record, the aliases (`displayName`, else `name`, plus `primarySol`), the
         *     manifest and the identity card. Besides this schema a record is refused when:
         *
         *     - `name` is not already normalized (`AgentName`) or is a `ReservedName`;
         *     - `displayName` or `manifest.name` does not normalize to `name`;
         *     - a `byoa` record has no `displayName` (its original casing);
         *     - a manifest capability does not resolve in the skill catalog (the store's plus the file's);
         *     - its `name`, `assetAddress` or `primarySol` is already held, in the store or earlier in the file.
         *
         *     `displayName` is listed by `GET /api/agents` on `byoa` passports only; a native passport's
         *     `displayName` is used by its aliases.
         */
        PassportRecord: {
            /** @description Normalized agent name (the namespace key). */
            name: string;
            /** @description Address of the passport asset (NFT / core asset); one asset backs one passport. */
            assetAddress: components["schemas"]["SolanaAddress"];
            /** @description Owner wallet. */
            ownerWallet: components["schemas"]["SolanaAddress"];
            description: string;
            /**
             * Format: int64
             * @description Creation time, epoch milliseconds.
             */
            createdAt: number;
            /**
             * @description `byoa` for bring-your-own-agent passports; absent on native passports.
             * @enum {string}
             */
            kind?: "byoa";
            /** @description Original casing of a bring-your-own-agent name. */
            displayName?: string;
            /** @description Locked-in name-service alias; null or absent until one is locked in. Held by one passport at most. */
            primarySol?: components["schemas"]["SolAlias"] | null;
            /** @description The ERC-8004 registration document served by `/manifest/{name}`; without one, that endpoint answers 404. */
            manifest?: components["schemas"]["Manifest"];
            /** @description The identity card served by `/api/said-card/{name}`; without one, that endpoint answers 404. */
            card?: Record<string, never>;
        };
        /**
         * @description An import file: `npm run registry:import -- file.json [--db path] [--upsert]`; the built-in seed
         *     has the same shape. The whole file is checked first and then written in one transaction, so a
         *     bad file writes nothing. The check reports every problem of the file in one pass, each with its
         *     place (`agents[3].ownerWallet`): this schema, the rules of `PassportRecord`, values given twice in
         *     the file, and values another passport already holds. Skill families merge by id: a known
         *     family's name and description are replaced and new options added; nothing is removed, so every
         *     stored capability keeps resolving.
         *
         *     With `--upsert`, a record naming a passport the store holds updates it: it may give only `name`
         *     and the fields to change (`{"name": "orbit-scout", "description": "..."}`); the others keep their
         *     stored values, a given `manifest` or `card` replaces the whole document, and the merged passport
         *     must pass every rule above.
         */
        RegistryImport: {
            agents: components["schemas"]["PassportRecord"][];
            skills?: components["schemas"]["SkillFamily"][];
        };
        /** @description `GET /` answer: what this service is and what it serves. */
        RegistryInfo: {
            /** @enum {string} */
            service: "agent-registry";
            version: string;
            /** @enum {string} */
            status: "ok";
            /** @description Every operation of this document. */
            operations: components["schemas"]["RegistryOperation"][];
            /** @description Where this document and its API reference page are served. */
            documents: {
                /** @enum {string} */
                openapi: "/openapi.json";
                /** @enum {string} */
                docs: "/docs";
            };
        };
        /** @description One operation of this service, as `GET /` lists it. */
        RegistryOperation: {
            operationId: string;
            /** @enum {string} */
            method: "GET";
            /** @description OpenAPI path, e.g. `/manifest/{name}`. */
            path: string;
            summary: string;
        };
        /**
         * @description Normalized names the registry keeps for itself (routes, roles, protocol words and JSON
         *     literals): no passport can take one. Checked after normalization, so `Admin` and `ADMIN` are
         *     reserved too.
         * @enum {string}
         */
        ReservedName: "about" | "abuse" | "admin" | "administrator" | "agent" | "agents" | "anonymous" | "api" | "app" | "auth" | "billing" | "contact" | "docs" | "false" | "help" | "info" | "login" | "manifest" | "mint" | "moderator" | "none" | "null" | "official" | "openapi" | "owner" | "passport" | "postmaster" | "registry" | "root" | "said" | "said-card" | "security" | "settings" | "signup" | "skills" | "sol" | "solana" | "staff" | "status" | "support" | "system" | "true" | "undefined" | "verify" | "webmaster" | "well-known" | "www" | "x402";
        /** @description `GET /api/skills` answer: the skill catalog. */
        SkillCatalog: {
            families: components["schemas"]["SkillFamily"][];
        };
        /** @description A family of related skills. */
        SkillFamily: {
            id: string;
            name: string;
            description: string;
            options: components["schemas"]["SkillOption"][];
        };
        /** @description One option of a skill family. */
        SkillOption: {
            /** @description Option id, unique within its family. */
            id: string;
            name: string;
            description: string;
        };
        /** @description A name-service alias ending in `.sol`, lowercase, e.g. `orbit-scout.sol`. */
        SolAlias: string;
        /** @description A Solana account address: base58, 32 to 44 characters. */
        SolanaAddress: string;
    };
    responses: never;
    parameters: {
        /** @description ETag of a copy the caller holds. */
        Conditional: string;
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    Service_serviceInfo: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETag of a copy the caller holds. */
                "If-None-Match"?: components["parameters"]["Conditional"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A cacheable read. */
            200: {
                headers: {
                    /** @description Strong validator of the body. */
                    ETag: string;
                    /** @description `public, max-age=<seconds>`; 30 s for lists and existence, 300 s for documents, 3600 s for the catalog. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "service": "agent-registry",
                     *       "version": "1.0.0",
                     *       "status": "ok",
                     *       "operations": [
                     *         {
                     *           "operationId": "Agents_listAgents",
                     *           "method": "GET",
                     *           "path": "/api/agents",
                     *           "summary": "List agents"
                     *         }
                     *       ],
                     *       "documents": {
                     *         "openapi": "/openapi.json",
                     *         "docs": "/docs"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["RegistryInfo"];
                };
            };
            /** @description Not modified: the `If-None-Match` validator still matches. */
            304: {
                headers: {
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unexpected server failure; the body carries no internals. Never charged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "internal_error",
                     *       "message": "The service failed to produce a valid answer.",
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
        };
    };
    Agents_primaryAlias: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETag of a copy the caller holds. */
                "If-None-Match"?: components["parameters"]["Conditional"];
            };
            path: {
                /** @example orbit-scout */
                name: components["schemas"]["AgentName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A cacheable read. */
            200: {
                headers: {
                    /** @description Strong validator of the body. */
                    ETag: string;
                    /** @description `public, max-age=<seconds>`; 30 s for lists and existence, 300 s for documents, 3600 s for the catalog. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "name": "orbit-scout",
                     *       "displayName": "Orbit-Scout",
                     *       "passportHandle": "@orbit-scout",
                     *       "displayHandle": "@Orbit-Scout",
                     *       "primarySol": "orbit-scout.sol",
                     *       "source": "native"
                     *     }
                     */
                    "application/json": components["schemas"]["AliasResult"];
                };
            };
            /** @description Not modified: the `If-None-Match` validator still matches. */
            304: {
                headers: {
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request: a parameter, body field or header is invalid. The body names every invalid field. Never charged. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "invalid_request",
                     *       "message": "name: must NOT have more than 128 characters",
                     *       "errors": [
                     *         {
                     *           "location": "path",
                     *           "field": "name",
                     *           "message": "must NOT have more than 128 characters"
                     *         }
                     *       ],
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
            /** @description Not found: unknown path, or the pool, token or agent named in the request does not exist. Never charged. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "not_found",
                     *       "message": "Unknown name: orbit-scout.",
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
            /** @description Unexpected server failure; the body carries no internals. Never charged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "internal_error",
                     *       "message": "The service failed to produce a valid answer.",
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
            /**
             * @description Temporarily unavailable: the service's ledger or store cannot be reached, or a paid answer was
             *     not ready before its payment's deadline (`service_unavailable`: nothing was charged), or the
             *     payment sent is still in progress for this request, its settlement's outcome included
             *     (`payment_in_progress`). Retry after `Retry-After` seconds, with the same payment: a payment is
             *     charged at most once, and its retry receives the answer it paid for.
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: when the service expects to answer, or the payment to have been resolved. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "service_unavailable",
                     *       "message": "The service is temporarily unavailable; nothing was charged. Repeat the request after Retry-After seconds.",
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
        };
    };
    Agents_listAgents: {
        parameters: {
            query?: {
                /** @example 2 */
                limit?: number;
            };
            header?: {
                /** @description ETag of a copy the caller holds. */
                "If-None-Match"?: components["parameters"]["Conditional"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A cacheable read. */
            200: {
                headers: {
                    /** @description Strong validator of the body. */
                    ETag: string;
                    /** @description `public, max-age=<seconds>`; 30 s for lists and existence, 300 s for documents, 3600 s for the catalog. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "agents": [
                     *         {
                     *           "name": "yield-hound",
                     *           "assetAddress": "FhXqZkVq2dM3VgCq1uSxxP3pGqgxaTnUsyG9vXP7jQ8c",
                     *           "ownerWallet": "GThUX1Atko4tqhN2NaiTazWSeFWMuiUvfFnyJyUghFMJ",
                     *           "description": "Bring-your-own agent that compares stablecoin yields across chains.",
                     *           "createdAt": 1763700000000,
                     *           "kind": "byoa",
                     *           "displayName": "Yield-Hound"
                     *         },
                     *         {
                     *           "name": "orbit-scout",
                     *           "assetAddress": "7vKp3qyW1sXdA2nQ6mRgBt4YcHwZe5JuLf8NaPo9ErTs",
                     *           "ownerWallet": "8J4JqXWkYkZq6dhYyYxBzkhJbRyg3QTXyQxK2eqPN3Fv",
                     *           "description": "Scans new Solana launches and flags tokens with clean authorities and light sniping.",
                     *           "createdAt": 1763600000000
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["AgentList"];
                };
            };
            /** @description Not modified: the `If-None-Match` validator still matches. */
            304: {
                headers: {
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request: a parameter, body field or header is invalid. The body names every invalid field. Never charged. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "invalid_request",
                     *       "message": "limit: must be <= 100",
                     *       "errors": [
                     *         {
                     *           "location": "query",
                     *           "field": "limit",
                     *           "message": "must be <= 100"
                     *         }
                     *       ],
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
            /** @description Unexpected server failure; the body carries no internals. Never charged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "internal_error",
                     *       "message": "The service failed to produce a valid answer.",
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
            /**
             * @description Temporarily unavailable: the service's ledger or store cannot be reached, or a paid answer was
             *     not ready before its payment's deadline (`service_unavailable`: nothing was charged), or the
             *     payment sent is still in progress for this request, its settlement's outcome included
             *     (`payment_in_progress`). Retry after `Retry-After` seconds, with the same payment: a payment is
             *     charged at most once, and its retry receives the answer it paid for.
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: when the service expects to answer, or the payment to have been resolved. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "service_unavailable",
                     *       "message": "The service is temporarily unavailable; nothing was charged. Repeat the request after Retry-After seconds.",
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
        };
    };
    Agents_agentExists: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETag of a copy the caller holds. */
                "If-None-Match"?: components["parameters"]["Conditional"];
            };
            path: {
                /** @example Orbit-Scout */
                name: components["schemas"]["AgentName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A cacheable read. */
            200: {
                headers: {
                    /** @description Strong validator of the body. */
                    ETag: string;
                    /** @description `public, max-age=<seconds>`; 30 s for lists and existence, 300 s for documents, 3600 s for the catalog. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "name": "Orbit-Scout",
                     *       "normalized": "orbit-scout",
                     *       "exists": true,
                     *       "available": false,
                     *       "source": "native",
                     *       "record": {
                     *         "name": "orbit-scout",
                     *         "ownerWallet": "8J4JqXWkYkZq6dhYyYxBzkhJbRyg3QTXyQxK2eqPN3Fv"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ExistenceResult"];
                };
            };
            /** @description Not modified: the `If-None-Match` validator still matches. */
            304: {
                headers: {
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request: a parameter, body field or header is invalid. The body names every invalid field. Never charged. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "invalid_request",
                     *       "message": "name: must NOT have more than 128 characters",
                     *       "errors": [
                     *         {
                     *           "location": "path",
                     *           "field": "name",
                     *           "message": "must NOT have more than 128 characters"
                     *         }
                     *       ],
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
            /** @description Unexpected server failure; the body carries no internals. Never charged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "internal_error",
                     *       "message": "The service failed to produce a valid answer.",
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
            /**
             * @description Temporarily unavailable: the service's ledger or store cannot be reached, or a paid answer was
             *     not ready before its payment's deadline (`service_unavailable`: nothing was charged), or the
             *     payment sent is still in progress for this request, its settlement's outcome included
             *     (`payment_in_progress`). Retry after `Retry-After` seconds, with the same payment: a payment is
             *     charged at most once, and its retry receives the answer it paid for.
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: when the service expects to answer, or the payment to have been resolved. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "service_unavailable",
                     *       "message": "The service is temporarily unavailable; nothing was charged. Repeat the request after Retry-After seconds.",
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
        };
    };
    Agents_identityCard: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETag of a copy the caller holds. */
                "If-None-Match"?: components["parameters"]["Conditional"];
            };
            path: {
                /** @example orbit-scout */
                name: components["schemas"]["AgentName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A cacheable read. */
            200: {
                headers: {
                    /** @description Strong validator of the body. */
                    ETag: string;
                    /** @description `public, max-age=<seconds>`; 30 s for lists and existence, 300 s for documents, 3600 s for the catalog. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "agent": "orbit-scout",
                     *       "owner": "8J4JqXWkYkZq6dhYyYxBzkhJbRyg3QTXyQxK2eqPN3Fv",
                     *       "verified": true,
                     *       "issuedAt": "2026-11-20T09:12:00.000Z",
                     *       "links": {
                     *         "website": "https://orbit-scout.example.com"
                     *       }
                     *     }
                     */
                    "application/json": Record<string, never>;
                };
            };
            /** @description Not modified: the `If-None-Match` validator still matches. */
            304: {
                headers: {
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request: a parameter, body field or header is invalid. The body names every invalid field. Never charged. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "invalid_request",
                     *       "message": "name: must NOT have more than 128 characters",
                     *       "errors": [
                     *         {
                     *           "location": "path",
                     *           "field": "name",
                     *           "message": "must NOT have more than 128 characters"
                     *         }
                     *       ],
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
            /** @description Not found: unknown path, or the pool, token or agent named in the request does not exist. Never charged. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "not_found",
                     *       "message": "Unknown name: orbit-scout.",
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
            /** @description Unexpected server failure; the body carries no internals. Never charged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "internal_error",
                     *       "message": "The service failed to produce a valid answer.",
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
            /**
             * @description Temporarily unavailable: the service's ledger or store cannot be reached, or a paid answer was
             *     not ready before its payment's deadline (`service_unavailable`: nothing was charged), or the
             *     payment sent is still in progress for this request, its settlement's outcome included
             *     (`payment_in_progress`). Retry after `Retry-After` seconds, with the same payment: a payment is
             *     charged at most once, and its retry receives the answer it paid for.
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: when the service expects to answer, or the payment to have been resolved. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "service_unavailable",
                     *       "message": "The service is temporarily unavailable; nothing was charged. Repeat the request after Retry-After seconds.",
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
        };
    };
    Agents_listSkills: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETag of a copy the caller holds. */
                "If-None-Match"?: components["parameters"]["Conditional"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A cacheable read. */
            200: {
                headers: {
                    /** @description Strong validator of the body. */
                    ETag: string;
                    /** @description `public, max-age=<seconds>`; 30 s for lists and existence, 300 s for documents, 3600 s for the catalog. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "families": [
                     *         {
                     *           "id": "trading",
                     *           "name": "Trading",
                     *           "description": "Finding, judging and executing trades.",
                     *           "options": [
                     *             {
                     *               "id": "token-screening",
                     *               "name": "Token screening",
                     *               "description": "Filters tokens by risk and momentum."
                     *             }
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SkillCatalog"];
                };
            };
            /** @description Not modified: the `If-None-Match` validator still matches. */
            304: {
                headers: {
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unexpected server failure; the body carries no internals. Never charged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "internal_error",
                     *       "message": "The service failed to produce a valid answer.",
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
            /**
             * @description Temporarily unavailable: the service's ledger or store cannot be reached, or a paid answer was
             *     not ready before its payment's deadline (`service_unavailable`: nothing was charged), or the
             *     payment sent is still in progress for this request, its settlement's outcome included
             *     (`payment_in_progress`). Retry after `Retry-After` seconds, with the same payment: a payment is
             *     charged at most once, and its retry receives the answer it paid for.
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: when the service expects to answer, or the payment to have been resolved. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "service_unavailable",
                     *       "message": "The service is temporarily unavailable; nothing was charged. Repeat the request after Retry-After seconds.",
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
        };
    };
    Service_docsPage: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETag of a copy the caller holds. */
                "If-None-Match"?: components["parameters"]["Conditional"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A cacheable HTML page. */
            200: {
                headers: {
                    /** @description Strong validator of the page. */
                    ETag: string;
                    /** @description `public, max-age=300`. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Not modified: the `If-None-Match` validator still matches. */
            304: {
                headers: {
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unexpected server failure; the body carries no internals. Never charged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "internal_error",
                     *       "message": "The service failed to produce a valid answer.",
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
        };
    };
    Operations_livez: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request has succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.Liveness"];
                };
            };
            /** @description Unexpected server failure; the body carries no internals. Never charged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "internal_error",
                     *       "message": "The service failed to produce a valid answer.",
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
        };
    };
    Agents_getManifest: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETag of a copy the caller holds. */
                "If-None-Match"?: components["parameters"]["Conditional"];
            };
            path: {
                /** @example orbit-scout */
                name: components["schemas"]["AgentName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A cacheable read. */
            200: {
                headers: {
                    /** @description Strong validator of the body. */
                    ETag: string;
                    /** @description `public, max-age=<seconds>`; 30 s for lists and existence, 300 s for documents, 3600 s for the catalog. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "https://eips.ethereum.org/EIPS/eip-8004#registration-v1",
                     *       "name": "orbit-scout",
                     *       "description": "Scans new Solana launches and flags tokens with clean authorities and light sniping.",
                     *       "image": "https://registry.example.com/images/orbit-scout.png",
                     *       "services": [
                     *         {
                     *           "name": "A2A",
                     *           "endpoint": "https://orbit-scout.example.com/.well-known/agent-card.json",
                     *           "version": "0.3.0"
                     *         },
                     *         {
                     *           "name": "MCP",
                     *           "endpoint": "https://orbit-scout.example.com/mcp",
                     *           "version": "2025-06-18"
                     *         }
                     *       ],
                     *       "capabilities": [
                     *         "trading:token-screening",
                     *         "data:onchain-analytics"
                     *       ],
                     *       "tags": [
                     *         "solana",
                     *         "memecoins",
                     *         "risk"
                     *       ],
                     *       "registrations": [
                     *         {
                     *           "agentId": 412,
                     *           "agentRegistry": "eip155:8453:0x8004A169FB4a3325136EB29fA0ceB6D2e539a432"
                     *         }
                     *       ],
                     *       "x402Support": true,
                     *       "active": true
                     *     }
                     */
                    "application/json": components["schemas"]["Manifest"];
                };
            };
            /** @description Not modified: the `If-None-Match` validator still matches. */
            304: {
                headers: {
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request: a parameter, body field or header is invalid. The body names every invalid field. Never charged. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "invalid_request",
                     *       "message": "name: must NOT have more than 128 characters",
                     *       "errors": [
                     *         {
                     *           "location": "path",
                     *           "field": "name",
                     *           "message": "must NOT have more than 128 characters"
                     *         }
                     *       ],
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
            /** @description Not found: unknown path, or the pool, token or agent named in the request does not exist. Never charged. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "not_found",
                     *       "message": "Unknown name: orbit-scout.",
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
            /** @description Unexpected server failure; the body carries no internals. Never charged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "internal_error",
                     *       "message": "The service failed to produce a valid answer.",
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
            /**
             * @description Temporarily unavailable: the service's ledger or store cannot be reached, or a paid answer was
             *     not ready before its payment's deadline (`service_unavailable`: nothing was charged), or the
             *     payment sent is still in progress for this request, its settlement's outcome included
             *     (`payment_in_progress`). Retry after `Retry-After` seconds, with the same payment: a payment is
             *     charged at most once, and its retry receives the answer it paid for.
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: when the service expects to answer, or the payment to have been resolved. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "service_unavailable",
                     *       "message": "The service is temporarily unavailable; nothing was charged. Repeat the request after Retry-After seconds.",
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
        };
    };
    Operations_metrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text exposition format, version 0.0.4. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example # HELP http_requests_total Answers by operation and HTTP status.
                     *     # TYPE http_requests_total counter
                     *     http_requests_total{operation="Operations_readyz",status="200"} 42
                     *     # HELP process_resident_memory_bytes Resident memory size in bytes.
                     *     # TYPE process_resident_memory_bytes gauge
                     *     process_resident_memory_bytes 98304000
                     */
                    "text/plain; version=0.0.4": string;
                };
            };
            /** @description The bearer token is missing or wrong (only when the deployment sets `METRICS_TOKEN`). */
            401: {
                headers: {
                    /** @description `Bearer`, the scheme to authenticate with. */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "unauthorized",
                     *       "message": "This deployment's metrics need Authorization: Bearer <METRICS_TOKEN>.",
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
            /** @description Unexpected server failure; the body carries no internals. Never charged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "internal_error",
                     *       "message": "The service failed to produce a valid answer.",
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
        };
    };
    Service_openApiDocument: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETag of a copy the caller holds. */
                "If-None-Match"?: components["parameters"]["Conditional"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A cacheable read. */
            200: {
                headers: {
                    /** @description Strong validator of the body. */
                    ETag: string;
                    /** @description `public, max-age=<seconds>`; 30 s for lists and existence, 300 s for documents, 3600 s for the catalog. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Not modified: the `If-None-Match` validator still matches. */
            304: {
                headers: {
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request: a parameter, body field or header is invalid. The body names every invalid field. Never charged. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
            /** @description Unexpected server failure; the body carries no internals. Never charged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "internal_error",
                     *       "message": "The service failed to produce a valid answer.",
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
        };
    };
    Operations_readyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready: every part answered within the bound. */
            200: {
                headers: {
                    /** @description `no-store`: a readiness answer is only true when it is given. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ready",
                     *       "checks": [
                     *         {
                     *           "name": "ledger",
                     *           "ok": true,
                     *           "duration_ms": 1
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Common.Readiness"];
                };
            };
            /** @description Unexpected server failure; the body carries no internals. Never charged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "internal_error",
                     *       "message": "The service failed to produce a valid answer.",
                     *       "request_id": "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71"
                     *     }
                     */
                    "application/json": components["schemas"]["Common.ErrorBody"];
                };
            };
            /** @description Not ready: at least one part failed or did not answer within the bound; `checks` names it. */
            503: {
                headers: {
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "not_ready",
                     *       "checks": [
                     *         {
                     *           "name": "ledger",
                     *           "ok": true,
                     *           "duration_ms": 1
                     *         },
                     *         {
                     *           "name": "settlement:facilitator",
                     *           "ok": false,
                     *           "duration_ms": 2000,
                     *           "error": "no answer within 2000 ms"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Common.Readiness"];
                };
            };
        };
    };
}
