import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BlockList, isIP } from 'node:net';
import { Reader, type Response } from 'mmdb-lib';
import { BoundedCache } from '../lib/bounded-cache.js';

export interface Country {
  /** ISO 3166-1 alpha-2, upper case. */
  code: string;
  /** English country name, e.g. "United States". */
  name: string;
}

/** The ip-location-db records are `{country_code}`; MaxMind GeoLite/GeoIP2 files are `{country: {iso_code}}`. */
interface GeoRecord {
  country_code?: string;
  country?: { iso_code?: string };
}

const BUNDLED = '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb';

// Addresses that never locate a real visitor; some databases map them anyway (192.168/16 came back as AU).
const NOT_PUBLIC = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  NOT_PUBLIC.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(net, bits, 'ipv6');
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const byIp = new BoundedCache<string, Country | null>(50_000);
/** undefined until loaded; null when loading failed (every address is then of unknown country). */
let reader: Reader<Response> | null | undefined;
let loadedFrom = '';

/** A loaded database file's bytes in shared memory, handed to the click writer thread. */
export interface SharedGeoDatabase {
  file: string;
  bytes: Uint8Array;
}
let shared: SharedGeoDatabase | undefined;

/**
 * Loads the country database once per file: GEOIP_MMDB when given, else the file bundled in the npm
 * package. Called at startup (ClickRecorder) so the first request does not pay for reading ~8 MB.
 * Throws when the file cannot be read; lookups then answer null instead of failing requests.
 */
export function loadGeoDatabase(path = process.env.GEOIP_MMDB, from?: SharedGeoDatabase): void {
  const file = path || createRequire(import.meta.url).resolve(BUNDLED);
  if (reader && loadedFrom === file) return;
  reader = null;
  byIp.clear();
  shared = undefined;
  const bytes = from?.file === file ? from.bytes : readShared(file);
  reader = new Reader<Response>(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  loadedFrom = file;
  shared = { file, bytes };
}

/** The loaded database, for loadGeoDatabase in another thread: both threads then read one copy. */
export function sharedGeoDatabase(): SharedGeoDatabase | undefined {
  return reader ? shared : undefined;
}

/** The file read straight into a SharedArrayBuffer (no second, transient copy of its ~8 MB). */
function readShared(file: string): Uint8Array {
  const fd = openSync(file, 'r');
  try {
    const bytes = new Uint8Array(new SharedArrayBuffer(fstatSync(fd).size));
    for (let at = 0; at < bytes.length;) {
      const read = readSync(fd, bytes, at, bytes.length - at, at);
      if (read === 0) throw new Error(`${file} ended before its size`);
      at += read;
    }
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/** Country of a client IP from the offline database; null for private, reserved, invalid or unknown addresses. */
export function countryOf(ip: string): Country | null {
  const cached = byIp.get(ip);
  if (cached !== undefined) return cached;
  const country = lookup(ip);
  if (ip.length <= 64) byIp.set(ip, country);
  return country;
}

/** An IPv4 address written IPv6-mapped (`::ffff:1.2.3.4`, as dual-stack sockets report it) as plain IPv4. */
export function normalizeIp(ip: string): string {
  return ip.length > 7 && /^::ffff:/i.test(ip) && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
}

function lookup(rawIp: string): Country | null {
  const ip = normalizeIp(rawIp);
  const family = isIP(ip);
  if (family === 0 || NOT_PUBLIC.check(ip, family === 4 ? 'ipv4' : 'ipv6')) return null;
  if (reader === undefined) tryLoad();
  // mmdb-lib answers IPv6 lookups in an IPv4-only file from the address's first 32 bits: wrong, not empty.
  const record = reader && (family === 4 || reader.metadata.ipVersion === 6) ? safeGet(reader, ip) : null;
  const code = (record?.country_code ?? record?.country?.iso_code ?? '').toUpperCase();
  return /^[A-Z]{2}$/.test(code) ? { code, name: countryName(code) } : null;
}

// A malformed database may throw; an unknown country must never fail a click batch.
function safeGet(db: Reader<Response>, ip: string): GeoRecord | null {
  try {
    return db.get(ip) as GeoRecord | null;
  } catch {
    return null;
  }
}

function tryLoad(): void {
  try {
    loadGeoDatabase();
  } catch {
    reader = null;
  }
}

export function countryName(code: string): string {
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}
