import type { Db } from '../../db/connect.js';
import { port } from '../../lib/port.js';

/**
 * What deleting an account asks of the features that own its links and QR codes (they import account,
 * for activity and e-mails): each forgets its rows' clicks inside the delete's transaction. Plugged in by
 * src/compose.ts.
 */
export type AccountDeletion = Array<(trx: Db, userId: number) => Promise<void>>;

export const accountDeletion = port<AccountDeletion>('account: deletion of owned rows');
