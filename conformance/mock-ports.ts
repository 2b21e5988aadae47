/** Fixed ports of `npm run mock` (MOCK_PORT and MOCK_REGISTRY_PORT override them; the suite's own mock takes free ports). */
export const MOCK_PORTS = { analytics: 4010, registry: 4011 } as const;
