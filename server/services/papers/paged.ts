/**
 * One page of a paged list (我的试卷, 校本资料, 题目合集, 作业列表, the question bank): the total matching
 * `where`, the ids of the asked page in `order`, then `load` turns them into the list's rows.
 */
import { count, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Paged } from '../../../src/shared/contract/papers';
import type { Db } from '../../db/client';

export async function pageOf<T>(
  db: Db,
  table: PgTable,
  id: AnyPgColumn<{ data: number; notNull: true }>,
  where: SQL | undefined,
  order: SQL[],
  query: { page: number; pageSize: number },
  load: (ids: number[]) => Promise<T[]>,
): Promise<Paged<T>> {
  const [total] = await db.select({ value: count() }).from(table).where(where);
  const rows = await db
    .select({ id })
    .from(table)
    .where(where)
    .orderBy(...order)
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return {
    list: await load(rows.map((row) => row.id)),
    total: total?.value ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}
