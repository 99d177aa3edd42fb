/**
 * The demo school. Runs once, when the database has no school at all, so a fresh `npm start` shows a
 * working product. Later issues extend it; every step stays idempotent-by-emptiness.
 */
import { count } from 'drizzle-orm';
import type { Db } from './client';
import { orgs } from './schema';

export const DEMO_SCHOOL_NAME = '示范中学';

export async function seedDemo(db: Db): Promise<boolean> {
  const [row] = await db.select({ value: count() }).from(orgs);
  if ((row?.value ?? 0) > 0) return false;
  await db.transaction(async (tx) => {
    await tx.insert(orgs).values({ name: DEMO_SCHOOL_NAME });
  });
  return true;
}
