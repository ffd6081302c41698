import type { TargetKind } from '../../db/types.js';
import type { PendingClick } from './derive.js';

/**
 * A batch of raw visits as it crosses to the writer thread: columns of numbers plus each distinct
 * header string once. The structured clone of 20,000 visit objects wrote every property name and every
 * repeated user agent for each visit; browsers send a handful of distinct headers.
 */
export interface EncodedBatch {
  kinds: Uint8Array;
  ids: Float64Array;
  /** Per visit: indexes into `strings` of ip, user agent and referer. */
  fields: Uint32Array;
  strings: string[];
}

const KINDS: TargetKind[] = ['link', 'qr'];
const FIELDS = 3;

export function encodeBatch(batch: PendingClick[]): EncodedBatch {
  const kinds = new Uint8Array(batch.length);
  const ids = new Float64Array(batch.length);
  const fields = new Uint32Array(batch.length * FIELDS);
  const strings: string[] = [];
  const index = new Map<string, number>();
  const intern = (value: string) => {
    let at = index.get(value);
    if (at === undefined) index.set(value, (at = strings.push(value) - 1));
    return at;
  };
  for (let i = 0; i < batch.length; i++) {
    const { kind, id, visit } = batch[i]!;
    kinds[i] = kind === 'qr' ? 1 : 0;
    ids[i] = id;
    fields[i * FIELDS] = intern(visit.ip);
    fields[i * FIELDS + 1] = intern(visit.userAgent);
    fields[i * FIELDS + 2] = intern(visit.referer);
  }
  return { kinds, ids, fields, strings };
}

export function decodeBatch({ kinds, ids, fields, strings }: EncodedBatch): PendingClick[] {
  const batch: PendingClick[] = new Array(kinds.length);
  for (let i = 0; i < kinds.length; i++) {
    const visit = { ip: strings[fields[i * FIELDS]!]!, userAgent: strings[fields[i * FIELDS + 1]!]!, referer: strings[fields[i * FIELDS + 2]!]! };
    batch[i] = { kind: KINDS[kinds[i]!]!, id: ids[i]!, visit };
  }
  return batch;
}
