/**
 * Which fixes the review page offers for each kind of recognition problem, and their Chinese names.
 * Pure. The server decides what a fix does (it re-runs the page's scoring); this only keeps the page
 * from offering a fix that cannot apply (a bubble correction for a page that could not be read at all).
 */
import { REVIEW_ACTIONS_BY_KIND, type ReviewItem, type ReviewResolution } from '../../shared/contract/marking';
import type { RecognitionProblemKind } from '../../shared/contract/recognition';

export type ReviewAction = ReviewResolution['action'];

export const REVIEW_ACTION_LABELS: Record<ReviewAction, string> = {
  assignStudent: '指定学生',
  setAnswer: '修改填涂',
  accept: '确认',
  discard: '作废',
};

/** The fixes to offer for an open item; a bubble correction needs the reading it corrects. */
export function reviewActionsFor(item: Pick<ReviewItem, 'kind' | 'reading' | 'actions'>): readonly ReviewAction[] {
  // The server says which it will take now (e.g. no 确认 for a sheet of a homework outside the school).
  if (item.actions) return item.actions;
  return REVIEW_ACTIONS_BY_KIND[item.kind].filter((action) => action !== 'setAnswer' || item.reading !== null);
}

/** Short explanations shown beside the fixes. */
export const REVIEW_ACTION_HINTS: Record<ReviewAction, string> = {
  assignStudent: '这张答题卡属于哪位学生',
  setAnswer: '按答题卡上学生实际的填涂修改',
  accept: '保留识别结果，计入成绩',
  discard: '这张答题卡不计入本次作业的成绩',
};

/** What 确认 does depends on the problem (the server's rules); said before the teacher clicks. */
const ACCEPT_HINTS: Partial<Record<RecognitionProblemKind, string>> = {
  multipleMarks: '确认：按识别到的填涂计分',
  lowConfidence: '确认：按识别到的填涂计分',
  blankPage: '确认：忽略这张空白页',
  otherHomework: '确认：移到二维码所属的作业',
  duplicatePage: '确认：用这张替换先前扫描的同一页',
  missingPage: '确认：按缺页处理，该页各题记 0 分',
  outOfScope: '确认：计入二维码所属的作业',
};

export function acceptHint(kind: RecognitionProblemKind): string {
  return ACCEPT_HINTS[kind] ?? REVIEW_ACTION_HINTS.accept;
}

/** The actions a bulk request may carry: those that need nothing but the item itself. */
export type BulkAction = 'accept' | 'discard';

export const BULK_ACTION_LABELS: Record<BulkAction, string> = { accept: '批量确认', discard: '批量作废' };

/** What a bulk action would do to the selected items: those it fits, grouped by kind, and those it leaves. */
export function bulkPlan(items: readonly ReviewItem[], selected: ReadonlySet<number>, action: BulkAction) {
  const chosen = items.filter((item) => selected.has(item.id));
  const applicable = chosen.filter((item) => reviewActionsFor(item).includes(action));
  const byKind = new Map<RecognitionProblemKind, number>();
  for (const item of applicable) byKind.set(item.kind, (byKind.get(item.kind) ?? 0) + 1);
  return { applicable, skipped: chosen.length - applicable.length, byKind: [...byKind.entries()] };
}

/**
 * The selection after clicking `target`'s checkbox: a plain click sets that one; a shift-click sets every
 * item between the last clicked one (`anchor`) and `target`, in list order, to the clicked state.
 */
export function toggleSelection(
  order: readonly number[],
  selected: ReadonlySet<number>,
  anchor: number | null,
  target: number,
  checked: boolean,
  range: boolean,
): Set<number> {
  const next = new Set(selected);
  const from = anchor === null ? -1 : order.indexOf(anchor);
  const to = order.indexOf(target);
  const ids = range && from >= 0 && to >= 0 ? order.slice(Math.min(from, to), Math.max(from, to) + 1) : [target];
  for (const id of ids) {
    if (checked) next.add(id);
    else next.delete(id);
  }
  return next;
}
