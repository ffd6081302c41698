import { connect, type Socket } from 'node:net';
import { Agent, request } from 'undici';

/** One answered or failed request of a load run, with the time its answer (or failure) arrived. */
export interface Outcome {
  status: number | null;
  error?: string;
  startedAt: number;
  endedAt: number;
}

export interface LoadRun {
  /** Resolves once every lane has stopped: each stops at its first connection failure or at stop(). */
  done: Promise<Outcome[]>;
  stop(): void;
}

/**
 * `lanes` clients, each sending GET `path` back to back over its own kept-alive connection (as a load
 * balancer does) until the server goes away or stop() is called.
 */
export function redirectLoad(base: string, path: string, headers: Record<string, string>, lanes = 12): LoadRun {
  const agent = new Agent({ connections: lanes, pipelining: 1, keepAliveTimeout: 30_000 });
  let stopped = false;
  const outcomes: Outcome[] = [];
  const lane = async () => {
    while (!stopped) {
      const startedAt = Date.now();
      try {
        const res = await request(`${base}${path}`, { headers, dispatcher: agent });
        await res.body.dump();
        outcomes.push({ status: res.statusCode, startedAt, endedAt: Date.now() });
      } catch (err) {
        outcomes.push({ status: null, error: (err as { code?: string }).code ?? String(err), startedAt, endedAt: Date.now() });
        return;
      }
    }
  };
  const done = Promise.all(Array.from({ length: lanes }, lane)).then(async () => {
    await agent.destroy();
    return outcomes;
  });
  return { done, stop: () => void (stopped = true) };
}

/**
 * A GET whose request head is sent in two parts: `finish()` sends the rest. Resolves with the status
 * line's code, or null when the connection closed without an answer.
 */
export function splitRequest(base: string, path: string, host: string, userAgent: string) {
  const url = new URL(base);
  const socket: Socket = connect(Number(url.port), url.hostname);
  let raw = '';
  socket.on('data', (chunk) => (raw += chunk.toString('latin1')));
  const answered = new Promise<number | null>((resolve) => {
    socket.on('close', () => resolve(/^HTTP\/1\.1 (\d{3})/.exec(raw) ? Number(RegExp.$1) : null));
    socket.on('error', () => {});
  });
  const opened = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const head = `GET ${path} HTTP/1.1\r\nHost: ${host}\r\n`;
  return {
    /** Connects and sends the first part of the head. */
    begin: async () => {
      await opened;
      socket.write(head);
    },
    finish: () => socket.write(`User-Agent: ${userAgent}\r\nConnection: close\r\n\r\n`),
    answered,
  };
}
