/** Which review items a homework lists (shared by progress, the score table and student statuses). */
import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { reviewItems } from '../../db/schema';

/**
 * The review items a homework lists: its own, and those of pages whose homework is still unknown in a
 * "by QR" batch that holds pages of this homework (the sheets of one stack are usually one homework).
 */
export function reviewItemsOf(homeworkId: number): SQL {
  return or(
    eq(reviewItems.homeworkId, homeworkId),
    and(
      isNull(reviewItems.homeworkId),
      sql`${reviewItems.recognitionId} in (select pr.id from page_recognitions pr where pr.batch_id in
        (select distinct batch_id from page_recognitions where homework_id = ${homeworkId}))`,
    ),
  )!;
}
