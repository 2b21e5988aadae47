/**
 * Credentials out of anything the services log or store: bearer and basic tokens, `key=value`
 * pairs whose key names a secret, secret-named query parameters and the user-info part of URLs.
 * Upstream and facilitator messages can echo what was sent to them; they pass through here.
 */
const SECRET_NAME =
  "(?:authorization|x-api-key|api[-_]?key|apikey|access[-_]?token|refresh[-_]?token|token|secret|client[-_]?secret|password|passwd|private[-_]?key)";

const RULES: [RegExp, string][] = [
  [/\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{4,}/gi, "$1 [redacted]"],
  [new RegExp(`([?&;]${SECRET_NAME}=)[^&\\s"'#]+`, "gi"), "$1[redacted]"],
  [
    new RegExp(
      `(["']?\\b${SECRET_NAME}["']?\\s*[:=]\\s*["']?)(?!\\[redacted\\]|(?:Bearer|Basic|Token)\\s)[^\\s"',;&}]+`,
      "gi",
    ),
    "$1[redacted]",
  ],
  [/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi, "$1[redacted]@"],
];

export function redactSecrets(text: string): string {
  let result = text;
  for (const [pattern, replacement] of RULES) result = result.replace(pattern, replacement);
  return result;
}
