import type { Db } from '../../db/connect.js';
import type { JournalMark } from './segments.js';

/** The click_journal table (src/db/migrations/0015): the last committed batch of each click journal. */

/** Recorded in the batch's own transaction, so a batch is counted and marked together or not at all. */
export async function markJournal(trx: Db, mark: JournalMark): Promise<void> {
  await trx
    .insertInto('click_journal')
    .values({ journal: mark.journal, seq: mark.seq })
    .onConflict((oc) => oc.column('journal').doUpdateSet({ seq: mark.seq }))
    .execute();
}

/** The same for the SQLite writer's prepared statements. */
export const MARK_JOURNAL_SQL = 'INSERT INTO click_journal (journal, seq) VALUES (?, ?) ON CONFLICT (journal) DO UPDATE SET seq = excluded.seq';

/** The last sequence of `journal` counted already (0: none). */
export async function committedSeq(db: Db, journal: string): Promise<number> {
  const row = await db.selectFrom('click_journal').select('seq').where('journal', '=', journal).executeTakeFirst();
  return row ? Number(row.seq) : 0;
}

/** Its journal replayed and removed, the mark is no longer needed. */
export async function forgetJournal(db: Db, journal: string): Promise<void> {
  await db.deleteFrom('click_journal').where('journal', '=', journal).execute();
}
