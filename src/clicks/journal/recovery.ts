import { basename } from 'node:path';
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import { dropSegment, type ClickJournal } from './segments.js';
import { committedSeq, forgetJournal } from './repo.js';
import { claimAbandoned, readSegment, removeJournalDir, segmentsOf } from './replay.js';
import type { VisitBatch } from '../visit-columns.js';

export interface Recovery {
  db: Db;
  log: Logger;
  /** True once the recorder is closing: the replay stops, what is left waits for the next start. */
  closing(): boolean;
  /** Queues a batch for the recorder's writer; resolves once it is committed (or the recorder closes). */
  write(batch: VisitBatch, segment: string): Promise<void>;
}

/**
 * Takes over the journals of processes that are gone and counts what they had not committed, in the
 * background (serving does not wait for it), one segment at a time through the normal writer. Segments
 * at or below a journal's committed mark were counted already (killed between commit and delete).
 */
export async function replayAbandoned(root: string, own: ClickJournal, recovery: Recovery): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve)); // after the start, not inside it
  try {
    for (const dir of claimAbandoned(root, own.dir, basename(own.dir))) {
      if (recovery.closing()) return;
      await replayDir(dir, recovery);
    }
  } catch (err) {
    recovery.log.error({ err, root }, 'click journal replay failed; it is retried at the next start');
  }
}

async function replayDir(dir: string, recovery: Recovery): Promise<void> {
  const journal = basename(dir);
  const done = await committedSeq(recovery.db, journal);
  let replayed = 0;
  for (const segment of segmentsOf(dir, journal)) {
    if (recovery.closing()) return;
    const batch = segment.seq > done ? readSegment(segment) : null;
    if (!batch) {
      dropSegment(segment.path);
      continue;
    }
    await recovery.write(batch, segment.path);
    replayed += batch.kinds.length;
  }
  if (recovery.closing() || !removeJournalDir(dir)) return;
  await forgetJournal(recovery.db, journal);
  if (replayed > 0) recovery.log.info({ journal, clicks: replayed }, 'clicks of a stopped process were replayed from its journal');
}
