import type { Request, RequestHandler, Response } from "express";
import { describe, expect, it } from "vitest";
import { handlerChain } from "./handler-chain.js";

const req = {} as Request;
const res = {} as Response;

/** What the chain hands its caller's `next`, once it has finished. */
function run(handlers: RequestHandler[]): Promise<unknown> {
  return new Promise((resolve) => handlerChain(handlers)(req, res, (error?: unknown) => resolve(error ?? "done")));
}

describe("handlerChain", () => {
  it("runs the handlers in order, then hands on", async () => {
    const seen: number[] = [];
    const step =
      (n: number): RequestHandler =>
      (_req, _res, next) => {
        seen.push(n);
        next();
      };
    expect(await run([step(1), step(2), step(3)])).toBe("done");
    expect(seen).toEqual([1, 2, 3]);
  });

  it("ends with the error passed to next, thrown, or of a rejected promise, skipping what follows", async () => {
    const never: RequestHandler = () => {
      throw new Error("ran after an error");
    };
    const failure = new Error("no");
    expect(await run([(_req, _res, next) => next(failure), never])).toBe(failure);
    expect(
      await run([
        () => {
          throw failure;
        },
        never,
      ]),
    ).toBe(failure);
    expect(await run([async () => Promise.reject(failure), never])).toBe(failure);
  });

  it("stops when a handler answers without calling next", async () => {
    let answered = false;
    const chain = handlerChain([
      () => {
        answered = true;
      },
    ]);
    let handedOn = false;
    chain(req, res, () => {
      handedOn = true;
    });
    expect([answered, handedOn]).toEqual([true, false]);
  });
});
