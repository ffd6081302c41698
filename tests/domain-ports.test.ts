import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers/server.js';

// docs/decisions/0013-hosts-ports-and-alias-case.md: a host name belongs to one account on every port (ports
// separate neither cookies nor sites), a Host is matched exactly (port included), aliases are case-sensitive.

let server: TestServer;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
  keyA = (await server.user()).apiKey;
  keyB = (await server.user()).apiKey;
});
afterAll(() => server.close());

const add = (domain: string, key: string) => server.call('POST', '/api/domain/add', { key, body: { domain } });
const link = async (key: string, body: Record<string, unknown>) => {
  const res = await server.call('POST', '/api/url/add', { key, body });
  expect(res.status, res.text).toBe(200);
};
const goes = async (path: string, host: string) => {
  const res = await server.visit(path, { headers: { host } });
  return res.status === 302 ? res.headers.location : res.status;
};

describe('a branded host on another port', () => {
  it("is refused to another account, in either order, and allowed to the host's own account", async () => {
    expect((await add('https://brand-a.test', keyA)).status).toBe(200);
    for (const domain of ['https://brand-a.test:8443', 'http://BRAND-A.test:8080']) {
      const res = await add(domain, keyB);
      expect(res.status, domain).toBe(409);
      expect(res.body).toEqual({ error: 1, message: expect.stringContaining('brand-a.test'), code: 'domain_port_taken_elsewhere' });
    }
    expect((await add('https://brand-a.test:8443', keyA)).status).toBe(200);
    // The port-less host is refused too once another account holds the name on some port.
    expect((await add('https://ported.test:9443', keyA)).status).toBe(200);
    expect((await add('https://ported.test', keyB)).body.code).toBe('domain_port_taken_elsewhere');
    // A name that merely starts the same is another host.
    expect((await add('https://brand-a.test.example', keyB)).status).toBe(200);
    expect((await add('https://brand-a.tes', keyB)).status).toBe(200);
  });

  it('is matched exactly: a port no domain names is served as the default domain', async () => {
    await link(keyA, { url: 'https://example.com/on-brand', custom: 'on-brand', domain: 'brand-a.test' });
    await link(keyA, { url: 'https://example.com/on-port', custom: 'on-brand', domain: 'brand-a.test:8443' });
    expect(await goes('/on-brand', 'brand-a.test')).toBe('https://example.com/on-brand');
    expect(await goes('/on-brand', 'brand-a.test:443')).toBe('https://example.com/on-brand');
    expect(await goes('/on-brand', 'brand-a.test:8443')).toBe('https://example.com/on-port');
    expect(await goes('/on-brand', 'brand-a.test:9999')).toBe(404);
  });
});

describe('aliases', () => {
  it("are case-sensitive: another account's alias differing only by case is its own link", async () => {
    await link(keyA, { url: 'https://example.com/a-lower', custom: 'alink' });
    await link(keyB, { url: 'https://example.com/b-upper', custom: 'ALINK' });
    expect(await goes('/alink', 'redirectory.test')).toBe('https://example.com/a-lower');
    expect(await goes('/ALINK', 'redirectory.test')).toBe('https://example.com/b-upper');
    expect(await goes('/Alink', 'redirectory.test')).toBe(404);
  });
});
