// @fieldsInQuery: a model whose every property is a query parameter. A legacy GET takes its POST
// twin's body fields in the query string; a copy of the body model marked so keeps one definition
// of each field (name, type, limits, default) for both forms. TypeSpec has no mapped types, and a
// property copied by a spread keeps only the decorators it lists, so `@query` is applied and listed.
// The body's `...Record<never>` (no field besides its own) comes along as an indexer, which would
// make an operation body of the GET: it is dropped (the validator refuses unknown query keys anyway).
import { $query } from "@typespec/http";

function $fieldsInQuery(context, target) {
  for (const property of target.properties.values()) {
    context.call($query, property);
    property.decorators.push({ decorator: $query, args: [] });
  }
  target.indexer = undefined;
}

export const $decorators = { Analytics: { fieldsInQuery: $fieldsInQuery } };
