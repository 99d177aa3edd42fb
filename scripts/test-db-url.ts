/**
 * Prints a PostgreSQL URL for the server tests when a local PostgreSQL answers (creating the test
 * database if needed), and nothing otherwise. TEST_DATABASE_URL, when already set, is kept.
 */
import pg from 'pg';

const DATABASE = 'smart_homework_test';
const adminUrl = process.env.TEST_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function main() {
  if (process.env.TEST_DATABASE_URL) {
    console.log(process.env.TEST_DATABASE_URL);
    return;
  }
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (!rowCount) await client.query(`create database ${DATABASE}`);
    const url = new URL(adminUrl);
    url.pathname = `/${DATABASE}`;
    console.log(url.toString());
  } catch {
    // No PostgreSQL here: the server tests run on PGlite only.
  } finally {
    await client.end().catch(() => undefined);
  }
}

await main();
