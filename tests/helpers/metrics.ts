import { request } from 'undici';

/** A scrape's samples: `name{label="value",…}` (labels sorted, as written) → value. */
export type Samples = Map<string, number>;

/** Parses the Prometheus text format (comments skipped); sample keys keep the labels as the registry wrote them. */
export function parseMetrics(text: string): Samples {
  const samples: Samples = new Map();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    samples.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return samples;
}

/** A sample's value, 0 when the series is absent (a counter nothing has touched). */
export function sample(samples: Samples, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels);
  for (const [key, value] of samples) {
    const brace = key.indexOf('{');
    if ((brace === -1 ? key : key.slice(0, brace)) !== name) continue;
    const have = brace === -1 ? '' : key.slice(brace);
    if (wanted.every(([k, v]) => have.includes(`${k}="${v}"`))) return value;
  }
  return 0;
}

/** GET /metrics at `base` (with `token` as a Bearer token when given). */
export async function scrape(base: string, token?: string): Promise<{ status: number; type: string; text: string }> {
  const res = await request(`${base}/metrics`, {
    headers: { connection: 'close', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
  });
  return { status: res.statusCode, type: String(res.headers['content-type'] ?? ''), text: await res.body.text() };
}
