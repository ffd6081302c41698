import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

/** A request the receiver got: the raw body as sent, for signature checks. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The parsed body when it was JSON. */
  json: any;
}

export type Answer = { status: number; location?: string };

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** TCP connections it accepted, including those never sent a request. */
  connections(): number;
  /** Sets how the next requests are answered: by call count (1 for the first) and path. */
  answer(fn: (n: number, path: string) => Answer): void;
  /** Waits until `check` holds of what was received; fails after about 30 s. */
  until(check: (received: Received[]) => boolean, what: string): Promise<Received[]>;
  close(): Promise<void>;
}

/** A local webhook receiver (tests run the server with OUTBOUND_ALLOW_LOOPBACK=true to reach it). */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let answer: (n: number, path: string) => Answer = () => ({ status: 200 });
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      received.push({ path: req.url ?? '/', headers: req.headers, body, json });
      const { status, location } = answer(received.length, req.url ?? '/');
      res.writeHead(status, location ? { location } : {}).end('ok');
    });
  });
  server.on('connection', () => connections++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    connections: () => connections,
    answer: (fn) => {
      answer = fn;
    },
    until: async (check, what) => {
      for (let i = 0; i < 300; i++) {
        if (check(received)) return received;
        await sleep(100);
      }
      throw new Error(`never: ${what}`);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls `check` until it answers true; fails after about 30 s. */
export async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`never: ${what}`);
}
