/**
 * The drizzle schema root: every table, one file per product area. Migrations under
 * server/db/migrations are generated from it (`npm run db:generate`) and applied at start on PGlite and
 * PostgreSQL alike.
 */
export * from './schema-accounts';
export * from './schema-papers';
export * from './schema-scan';
export * from './schema-marking';
export * from './schema-rehearse';
export * from './schema-sets';
export * from './schema-screens';
export * from './schema-binding';
export * from './schema-question-sets';
export * from './schema-rate-lines';
