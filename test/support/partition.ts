import net from "node:net";

/**
 * A TCP proxy to the server at `targetUrl` that can stop forwarding while keeping every connection open: a
 * network partition (or a paused server), where nothing is refused or reset and no reply (not even a
 * server's own timeout) comes back. Held bytes and closes go through, in order, once it heals.
 * The `url` it returns is the proxy's, with the target's other parts (credentials, database).
 */
export async function partitionableProxy(targetUrl: string, defaultPort: number) {
  const target = new URL(targetUrl);
  const clients = new Set<net.Socket>();
  const sockets = new Set<net.Socket>();
  let held: (() => void)[] | undefined;
  const later = (act: () => void) => (held ? held.push(act) : act());
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || defaultPort), target.hostname);
    clients.add(client);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(from);
      from.on("data", (chunk) => later(() => to.write(chunk)));
      from.on("error", () => {});
      from.on("close", () => {
        sockets.delete(from);
        clients.delete(from);
        later(() => to.destroy());
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(target);
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    /** Connections the database's clients hold open to the proxy. */
    open: () => clients.size,
    partition() {
      held ??= [];
    },
    heal() {
      const acts = held ?? [];
      held = undefined;
      for (const act of acts) act();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
