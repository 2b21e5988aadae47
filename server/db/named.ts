/**
 * Named parameters for drivers that bind numbered ones: a statement written with `:name` becomes the
 * text with numbered placeholders (`$1…` for node-postgres, `?1…` for libsql, whose own binding of an
 * object looks each name up on every run) and a function that lays an object's values out in that
 * order. A name the object lacks is an error, not a NULL, so that a misspelt parameter cannot pass a
 * condition silently (a name given as `undefined` is given). A cast (`::bigint`) and a quoted literal
 * are not parameters.
 */
import type Database from "libsql";

export interface NamedStatement {
  text: string;
  values(params: Record<string, unknown>): unknown[];
}

/** How the driver writes the n-th (1-based) parameter. */
export type Placeholder = (n: number) => string;

export const POSTGRES: Placeholder = (n) => `$${n}`;
export const SQLITE: Placeholder = (n) => `?${n}`;

export function named(text: string, placeholder: Placeholder = POSTGRES): NamedStatement {
  const names: string[] = [];
  const numbered = text.replace(
    /'(?:[^']|'')*'|(?<![:\w]):([A-Za-z_][A-Za-z0-9_]*)/g,
    (match, name: string | undefined) => {
      if (name === undefined) return match;
      if (!names.includes(name)) names.push(name);
      return placeholder(names.indexOf(name) + 1);
    },
  );
  return {
    text: numbered,
    values(params) {
      const values = new Array<unknown>(names.length);
      for (let i = 0; i < names.length; i++) {
        const value = params[names[i] as string];
        if (value === undefined && !((names[i] as string) in params))
          throw new Error(`the statement's parameter :${names[i]} was not given`);
        values[i] = value;
      }
      return values;
    },
  };
}

/** A SQLite statement written with named parameters, prepared once on `db` and bound by position. */
export function preparedNamed(db: Database.Database, text: string) {
  const statement = named(text, SQLITE);
  const prepared = db.prepare(statement.text);
  return {
    run: (params: Record<string, unknown>) => prepared.run(...statement.values(params)),
    get: (params: Record<string, unknown>) => prepared.get(...statement.values(params)),
  };
}
