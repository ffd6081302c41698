import { connect } from 'node:net';

export interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RawRequest {
  method: string;
  /** Sent as is: no encoding, no normalization (undici would resolve `..` and refuse odd bytes). */
  target: string;
  /** Header lines in order; a name may repeat. Values are written as UTF-8 bytes. */
  headers: Array<[string, string]>;
  body?: string;
}

function decodeChunked(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const end = data.indexOf('\r\n', at);
    if (end < 0) break;
    const size = Number.parseInt(data.subarray(at, end).toString('latin1'), 16);
    if (!size) break;
    parts.push(data.subarray(end + 2, end + 2 + size));
    at = end + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/**
 * One HTTP/1.1 request over its own connection, exactly as given (`Connection: close` is added), for
 * requests an HTTP client library would not send: odd Host headers, raw bytes, repeated headers.
 */
export function rawRequest(base: string, request: RawRequest, timeoutMs = 10_000): Promise<RawReply> {
  const url = new URL(base);
  const lines = [`${request.method} ${request.target} HTTP/1.1`, ...request.headers.map(([n, v]) => `${n}: ${v}`)];
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  if (body) lines.push(`Content-Length: ${body.length}`);
  lines.push('Connection: close', '', '');
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const data = Buffer.concat(chunks);
      const split = data.indexOf('\r\n\r\n');
      const head = data
        .subarray(0, split < 0 ? data.length : split)
        .toString('latin1')
        .split('\r\n');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? '');
      if (!status) return reject(new Error(`no HTTP answer: ${JSON.stringify(data.subarray(0, 200).toString('latin1'))}`));
      const headers: Record<string, string> = {};
      for (const line of head.slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const rest = split < 0 ? Buffer.alloc(0) : data.subarray(split + 4);
      const payload = headers['transfer-encoding'] === 'chunked' ? decodeChunked(rest) : rest;
      resolve({ status: Number(status[1]), headers, body: payload.toString('utf8') });
    });
    socket.write(Buffer.concat([Buffer.from(lines.join('\r\n')), body ?? Buffer.alloc(0)]));
  });
}
