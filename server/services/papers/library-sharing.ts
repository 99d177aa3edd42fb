/**
 * 共享到校本资料 and taking an item back, the same for a paper and a question set: only the owner shares
 * (an admin does not publish a colleague's draft on their behalf), sharing again keeps the first share's
 * time; the owner withdraws (撤回) and an admin removes (移除) a shared item, and taking back what is not
 * shared is a 404. Each service says how its own row is written.
 */
import type { Db } from '../../db/client';
import { ApiError } from '../../lib/api-error';
import { requireOwnerOrAdmin, type SchoolScope } from './school-scope';

/** What sharing needs to know of an item, already found in the caller's school. */
export type Shareable = { createdBy: number | null; sharedAt: Date | null };

/** Shares the item if the caller owns it (403 otherwise); `write` stores the share time it is given. */
export async function shareToLibrary(
  scope: SchoolScope,
  item: Shareable,
  write: (sharedAt: Date) => Promise<unknown>,
  now: () => Date = () => new Date(),
): Promise<void> {
  if (item.createdBy !== scope.userId) throw ApiError.forbidden();
  await write(item.sharedAt ?? now());
}

/** Takes a shared item out of 校本资料 for its owner or an admin; `write` clears its share. */
export async function unshareFromLibrary(
  db: Db,
  scope: SchoolScope,
  item: Shareable,
  write: () => Promise<unknown>,
): Promise<void> {
  if (item.sharedAt === null) throw ApiError.notFound();
  await requireOwnerOrAdmin(db, scope, item.createdBy);
  await write();
}
