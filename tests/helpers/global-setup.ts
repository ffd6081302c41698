/** Runs once before all test files. The PostgreSQL run (DATABASE_URL=postgres://…) prepares its databases here. */
export default async function setup(): Promise<void> {}
