import type { AppContext } from '../../context.js';
import { emailKey } from '../../lib/email-key.js';
import * as repo from './repo.js';

/** Accounts whose e-mails differ only in case, under the lower-cased e-mail they share. */
export interface DuplicateEmail {
  email: string;
  accounts: Array<{ id: number; email: string }>;
}

/**
 * At start: an account kept without an e-mail key (its e-mail differed only in case from an older account's before
 * migration 0012) takes its key once no other account holds it; those still sharing one are logged (warn), never
 * merged or deleted, until an administrator changes or deletes all but one (README "Security").
 */
export async function reportDuplicateEmails(ctx: AppContext): Promise<DuplicateEmail[]> {
  const groups = new Map<string, Array<{ id: number; email: string }>>();
  for (const user of await repo.usersWithoutEmailKey(ctx.db)) {
    const key = emailKey(user.email);
    if (await repo.claimEmailKey(ctx.db, user.id, key)) continue;
    if (!groups.has(key)) groups.set(key, await repo.usersWithEmailKey(ctx.db, key));
    groups.get(key)!.push(user);
  }
  const duplicates = [...groups].map(([email, accounts]) => ({ email, accounts: accounts.sort((a, b) => a.id - b.id) }));
  if (duplicates.length > 0) {
    ctx.log.warn(
      { duplicates },
      `${duplicates.length} e-mail address(es) belong to several accounts whose e-mails differ only in case: ` +
        'each signs in with its own spelling, any other spelling reaches the one listed first. Change or delete all but one of each.',
    );
  }
  return duplicates;
}
