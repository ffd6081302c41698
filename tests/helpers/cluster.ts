import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { request } from 'undici';
import type { Reply } from './server.js';

/**
 * A real Redirectory server process (`src/server.ts` under tsx, or the built `dist/server.js` that
 * `npm start` runs), for tests that need several nodes or a process to kill. Its log goes to `output`.
 */
export interface NodeProcess {
  name: string;
  url: string;
  proc: ChildProcess;
  output(): string;
  /** Resolves with the exit code (null when ended by a signal) once the process is gone. */
  exited: Promise<number | null>;
  /** Sends SIGTERM and resolves with the exit code once the process has drained and flushed. */
  stop(): Promise<number | null>;
  kill(): void;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

const START_TIMEOUT_MS = 45_000;

export interface NodeOptions {
  /** `src` runs src/server.ts under tsx (default); `dist` runs the build (see tests/helpers/build.ts). */
  entry?: 'src' | 'dist';
  /** Characters of log kept for `output()` (default the last 20,000). */
  logLimit?: number;
  /** Node's own options, before the entry (V8 flags, `--require`). */
  nodeArgs?: string[];
}

/** Starts a node with `env` on a free port and waits until GET /ready answers 200. */
export async function startNode(name: string, env: Record<string, string>, options: NodeOptions = {}): Promise<NodeProcess> {
  const port = await freePort();
  const entry = options.entry === 'dist' ? ['dist/server.js'] : ['--import', 'tsx', 'src/server.ts'];
  const args = [...(options.nodeArgs ?? []), ...entry];
  const logLimit = options.logLimit ?? 20_000;
  const proc = spawn(process.execPath, args, {
    cwd: process.cwd(),
    // Only what the node needs: nothing of the test runner's environment leaks into its config.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const collect = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-logLimit);
  };
  proc.stdout!.on('data', collect);
  proc.stderr!.on('data', collect);
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const node: NodeProcess = {
    name,
    url: `http://127.0.0.1:${port}`,
    proc,
    output: () => log,
    exited,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      return exited;
    },
    kill: () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    },
  };
  await waitReady(node, exited);
  return node;
}

async function waitReady(node: NodeProcess, exited: Promise<number | null>): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  while (Date.now() < deadline && !gone) {
    try {
      const res = await request(`${node.url}/ready`);
      await res.body.dump();
      if (res.statusCode === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  node.kill();
  throw new Error(`node ${node.name} did not become ready:\n${node.output()}`);
}

/** One HTTP call to a node; JSON bodies are parsed. */
export async function send(
  base: string,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const res = await request(`${base}${path}`, { method: method as 'GET', headers, body });
  const text = await res.body.text();
  const json = String(res.headers['content-type'] ?? '').includes('json') && text;
  return { status: res.statusCode, headers: res.headers, body: json ? JSON.parse(text) : text, text };
}

/** Adds a link with `alias` on a node (the call must succeed) and answers its id. */
export async function addLinkOn(node: NodeProcess, key: string, alias: string): Promise<number> {
  const res = await send(node.url, 'POST', '/api/url/add', { key, body: { url: `https://example.com/${alias}`, custom: alias } });
  if (res.status !== 200) throw new Error(`url/add answered ${res.status}: ${res.text}`);
  return res.body.id;
}

/** A link's click count as a node's API reports it. */
export async function clicksOn(node: NodeProcess, key: string, id: number): Promise<number> {
  const res = await send(node.url, 'GET', `/api/url/${id}`, { key });
  if (res.status !== 200) throw new Error(`GET /api/url/${id} answered ${res.status}: ${res.text}`);
  return res.body.data.clicks;
}
