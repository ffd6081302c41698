import { PostgresAdapter } from 'kysely';
export function isPostgres(db) {
    return db.getExecutor().adapter instanceof PostgresAdapter;
}
/** True when a driver error is a unique-constraint violation, on either dialect. */
export function isUniqueViolation(error) {
    const e = error;
    return e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || e?.code === '23505';
}
//# sourceMappingURL=dialect.js.map