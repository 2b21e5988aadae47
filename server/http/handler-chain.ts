/**
 * Several middlewares run as one, in order, the way Express runs the handlers of one route: an
 * error passed to `next` or thrown, or a rejected promise returned (Express 5's async handlers),
 * ends the chain with that error. Written here because Express exposes no way to compose
 * middlewares outside its router, and the router is what a lookup by exact path avoids (and the
 * paid front, which runs without Express, needs the same composition).
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export type Next = (error?: unknown) => void;

/** A middleware that needs nothing of Express: Node's request and response (Express's are both). */
export type NodeHandler<Req extends IncomingMessage = IncomingMessage, Res extends ServerResponse = ServerResponse> = (
  req: Req,
  res: Res,
  next: Next,
) => unknown;

export function handlerChain<Req extends IncomingMessage, Res extends ServerResponse>(
  handlers: readonly NodeHandler<Req, Res>[],
): NodeHandler<Req, Res> {
  return function chain(req: Req, res: Res, done: Next) {
    let index = 0;
    const next = (error?: unknown) => {
      if (error) return done(error);
      const handler = handlers[index++];
      if (!handler) return done();
      try {
        const returned: unknown = handler(req, res, next);
        if (returned instanceof Promise)
          returned.catch((rejection) => done(rejection ?? new Error("rejected promise")));
      } catch (thrown) {
        done(thrown);
      }
    };
    next();
  };
}
