import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TlsProxy {
  /** https://127.0.0.1:{port} */
  url: string;
  port: number;
  /** Sends everything to `target` from now on (it can start after the proxy: its BASE_URL needs our port). */
  forwardTo(target: string): void;
  close(): Promise<void>;
}

/**
 * A TLS-terminating proxy on 127.0.0.1 with a throwaway self-signed certificate (browsers are told to ignore
 * it), as a production installation sits behind one: pages on it are https, as pixel pages are in production,
 * so their CSP (`connect-src https:`) lets a tag script reach the API and the test sees what else stops it.
 * Host is passed on unchanged.
 */
export async function startTlsProxy(): Promise<TlsProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'redirectory-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  let target = '';
  const server: Server = createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (req, res) => {
    const upstream = request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    forwardTo: (url) => {
      target = url;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}
