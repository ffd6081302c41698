import { sql, type RawBuilder } from 'kysely';

/** What other features may read of accounts. */

/** The username of the account at `userIdColumn`, as a correlated subquery of another owner's list. */
export function usernameOf(userIdColumn: string): RawBuilder<string> {
  return sql<string>`(select username from users where users.id = ${sql.ref(userIdColumn)})`;
}
