/**
 * Several middlewares run as one, in order, the way Express runs the handlers of one route: an
 * error passed to `next` or thrown, or a rejected promise returned (Express 5's async handlers),
 * ends the chain with that error. Written here because Express exposes no way to compose
 * middlewares outside its router, and the router is what a lookup by exact path avoids.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";

export function handlerChain(handlers: readonly RequestHandler[]): RequestHandler {
  return function chain(req: Request, res: Response, done: NextFunction) {
    let index = 0;
    const next = (error?: unknown) => {
      if (error) return done(error);
      const handler = handlers[index++];
      if (!handler) return done();
      try {
        const returned: unknown = handler(req, res, next);
        if (returned instanceof Promise) returned.catch((rejection) => done(rejection ?? new Error("rejected promise")));
      } catch (thrown) {
        done(thrown);
      }
    };
    next();
  };
}
