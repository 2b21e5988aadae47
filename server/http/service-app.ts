/**
 * A service as a request listener with Express's `listen`, which is all its callers use (`npm start`,
 * the bench, the tests through supertest): the analytics service answers some requests before its
 * Express app sees them (analytics/front/paid-front.ts).
 */
import { createServer, type RequestListener, type Server } from "node:http";

export interface ServiceApp extends RequestListener {
  listen(port: number, host?: string, listening?: () => void): Server;
}

export function serviceApp(listener: RequestListener): ServiceApp {
  return Object.assign(
    (req: Parameters<RequestListener>[0], res: Parameters<RequestListener>[1]) => listener(req, res),
    {
      listen: (port: number, host?: string, listening?: () => void) =>
        createServer(listener).listen(port, host, listening),
    },
  );
}
