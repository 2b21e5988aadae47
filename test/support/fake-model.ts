/**
 * A local OpenAI-compatible chat-completions endpoint that takes its time: it answers a valid
 * insight (the first allowed signal) after `delayMs`, and every `failEvery`-th call fails, so that
 * the service answers some calls 206. Paid requests then spend a while between admission and
 * settlement, where crash tests want them. `onCall`, when set, is told of each call as it arrives
 * (before its answer is due): a test can kill a service at a moment it knows a request is in flight.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface SlowModel {
  url: string;
  onCall?: (call: number) => void;
  close(): Promise<void>;
}

export async function startSlowModel({ delayMs = 200, failEvery = 4 } = {}): Promise<SlowModel> {
  let calls = 0;
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      const call = ++calls;
      model.onCall?.(call);
      const body = JSON.parse(raw) as {
        response_format?: { json_schema?: { schema?: { properties?: { signal?: { enum?: string[] } } } } };
      };
      const signal = body.response_format?.json_schema?.schema?.properties?.signal?.enum?.[0] ?? "hold";
      setTimeout(() => {
        if (res.destroyed) return;
        if (call % failEvery === 0)
          return void res.writeHead(503, { "content-type": "application/json" }).end('{"error":"overloaded"}');
        const content = JSON.stringify({ insight: "A steady picture in the numbers.", signal, confidence: 0.6 });
        res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            id: `c${call}`,
            object: "chat.completion",
            choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content } }],
          }),
        );
      }, delayMs);
    });
  });
  const model: SlowModel = {
    url: "",
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  model.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return model;
}
