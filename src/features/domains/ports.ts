import type { Expression, SqlBool } from 'kysely';
import type { Db } from '../../db/connect.js';
import { port } from '../../lib/port.js';

/** What domains asks of links, which imports domains: plugged in by src/compose.ts. */
export interface DomainLinks {
  /** True while no link uses the domain: the delete's guard, part of its one statement so a racing add cannot slip in. */
  noLinkOn(domainId: number): Expression<SqlBool>;
  countOn(db: Db, domainId: number): Promise<number>;
}

export const domainLinks = port<DomainLinks>('domains: links on a domain');
