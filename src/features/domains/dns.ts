import { isIP } from 'node:net';
import { Resolver } from 'node:dns/promises';

/** What a host's DNS answers: addresses (A and AAAA) and CNAME targets, lower-cased without the final dot. */
export interface DnsRecords {
  addresses: string[];
  cnames: string[];
}

const bare = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** A missing record type (ENODATA, ENOTFOUND) or an unreachable server both mean "no such record". */
async function orEmpty(query: Promise<string[]>): Promise<string[]> {
  try {
    return await query;
  } catch {
    return [];
  }
}

export async function lookupRecords(host: string): Promise<DnsRecords> {
  const resolver = new Resolver({ timeout: 2000, tries: 2 });
  const [v4, v6, cnames] = await Promise.all([
    orEmpty(resolver.resolve4(host)),
    orEmpty(resolver.resolve6(host)),
    orEmpty(resolver.resolveCname(host)),
  ]);
  return { addresses: [...v4, ...v6].map(bare), cnames: cnames.map(bare) };
}

/**
 * True when the host's records name one of the targets: an IP target must be one of its addresses;
 * a host-name target must be its CNAME or share an address with it.
 */
export function pointsAt(host: DnsRecords, targets: Array<{ target: string; records?: DnsRecords }>): boolean {
  return targets.some(({ target, records }) => {
    const name = bare(target);
    if (isIP(name)) return host.addresses.includes(name);
    if (host.cnames.includes(name)) return true;
    return (records?.addresses ?? []).some((address) => host.addresses.includes(address));
  });
}

/** Resolves the host and every host-name target, then matches them. */
export async function hostPointsAtTargets(host: string, targets: string[]): Promise<boolean> {
  const [records, ...targetRecords] = await Promise.all([
    lookupRecords(host),
    ...targets.map((target) => (isIP(bare(target)) ? Promise.resolve(undefined) : lookupRecords(bare(target)))),
  ]);
  return pointsAt(
    records!,
    targets.map((target, i) => ({ target, records: targetRecords[i] })),
  );
}
