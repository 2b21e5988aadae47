/**
 * HEAD is GET without a body (RFC 9110). express-openapi-validator routes only what the document
 * lists, so the validators get a copy in which the GETs that answer HEAD are also listed as HEAD
 * (operation id `<id>Head`); Express answers HEAD with the GET route.
 */

type Operation = { operationId?: string; [key: string]: unknown };

/** `document` with a HEAD beside each GET that `answersHead` admits (by default every one). */
export function withHead<D extends { paths: Record<string, Record<string, unknown>> }>(
  document: D,
  answersHead: (get: Operation) => boolean = () => true,
): D {
  const paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => {
      const get = item.get as Operation | undefined;
      return [
        path,
        get && answersHead(get) ? { ...item, head: { ...get, operationId: `${get.operationId}Head` } } : item,
      ];
    }),
  );
  return { ...document, paths };
}

/** The GET's operation id of a HEAD's (`livezHead` → `livez`), so that metrics count a HEAD as its GET. */
export const asGet = (operationId: string | undefined) => operationId?.replace(/Head$/, "");
