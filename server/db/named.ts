/**
 * Named parameters for node-postgres, which numbers them: a statement written with `:name` becomes the
 * text with `$1…` and a function that lays an object's values out in that order. A name the object lacks
 * is an error, not a NULL, so that a misspelt parameter cannot pass a condition silently. A cast
 * (`::bigint`) and a quoted literal are not parameters.
 */
export interface NamedStatement {
  text: string;
  values(params: Record<string, unknown>): unknown[];
}

export function named(text: string): NamedStatement {
  const names: string[] = [];
  const numbered = text.replace(/'(?:[^']|'')*'|(?<![:\w]):([A-Za-z_][A-Za-z0-9_]*)/g, (match, name: string | undefined) => {
    if (name === undefined) return match;
    if (!names.includes(name)) names.push(name);
    return `$${names.indexOf(name) + 1}`;
  });
  return {
    text: numbered,
    values(params) {
      return names.map((name) => {
        if (!(name in params)) throw new Error(`the statement's parameter :${name} was not given`);
        return params[name];
      });
    },
  };
}
