import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';

export interface Tarpit {
  url: string;
  /** TCP connections it accepted (none is ever answered). */
  connections(): number;
  close(): void;
}

/** A receiver or destination that accepts TCP connections and never answers: only the client's own timeout ends a request. */
export async function startTarpit(): Promise<Tarpit> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => void sockets.push(socket)).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => sockets.length,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}
