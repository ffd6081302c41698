import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { mayConnect } from '../../lib/address-policy.js';

/** The error of a host whose every address the policy refuses (lib/address-policy.ts). */
export const BLOCKED = 'EADDRBLOCKED';

function blocked(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${hostname} resolves to no public address`), { code: BLOCKED });
}

/**
 * A `lookup` for net.connect that resolves, drops the addresses the policy refuses and hands the socket
 * only the rest: the check and the connection use the same answer, so a DNS record that changes between
 * them (rebinding) cannot slip a private address in.
 */
export function guardedLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0, hints: options.hints }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const allowed = addresses.filter((a) => mayConnect(a.address, allowLoopback));
      if (allowed.length === 0) return callback(blocked(hostname), '', 0);
      if (options.all) return (callback as (e: null, all: LookupAddress[]) => void)(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

/** An IP literal never reaches `lookup` (net.connect skips it), so it is judged here first. */
export function literalRefused(hostname: string, allowLoopback: boolean): NodeJS.ErrnoException | null {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (!/^[\d.]+$/.test(bare) && !bare.includes(':')) return null;
  return mayConnect(bare, allowLoopback) ? null : blocked(hostname);
}
