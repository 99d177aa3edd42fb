/**
 * The display's state between snapshots, as pure functions: applying a live event to the last snapshot
 * (so counters move the moment a page arrives), which panel an event jumps to, the rotation schedule, and the figures a panel prints. No IO, no React.
 */
import type {
  AnswerSheetsPrintedEvent,
  LargeScreenSnapshot,
  PipelineHomework,
  ScreenPanel,
} from '../../shared/contract/large-screen';
import type { MarkingProgress } from '../../shared/contract/marking';
import type { RecognitionProgress } from '../../shared/contract/recognition';

/** How long each panel stays before the next (ms). */
export const PANEL_ROTATION_MS = 20_000;
/** A panel an event jumped to stays at least this long (ms). */
export const EVENT_HOLD_MS = 30_000;
/** Without an update for this long while connected, the display says so (ms). */
export const STALE_AFTER_MS = 90_000;
/** At most one snapshot refresh per this interval after events (ms). */
export const REFRESH_THROTTLE_MS = 3_000;

export type LiveEvent =
  | { kind: 'pageStored'; homeworkId: number | null }
  | { kind: 'recognition'; progress: RecognitionProgress }
  | { kind: 'marking'; progress: MarkingProgress }
  | { kind: 'printed'; printed: AnswerSheetsPrintedEvent };

/** The panel a live event belongs on, when the display has it. */
export function panelOf(event: LiveEvent, panels: readonly ScreenPanel[]): ScreenPanel | null {
  const wanted: ScreenPanel = event.kind === 'marking' ? 'marking' : 'pipeline';
  if (panels.includes(wanted)) return wanted;
  return panels.includes('pipeline') ? 'pipeline' : null;
}

/** The counters an event carries, written into the snapshot (the per-class figures wait for the refresh). */
export function applyEvent(snapshot: LargeScreenSnapshot, event: LiveEvent): LargeScreenSnapshot {
  const update = (homeworkId: number, change: (hw: PipelineHomework) => PipelineHomework) => ({
    ...snapshot,
    pipeline: snapshot.pipeline.map((hw) => (hw.homeworkId === homeworkId ? change(hw) : hw)),
  });
  switch (event.kind) {
    case 'pageStored':
      return snapshot;
    case 'printed': {
      // A homework not on the pipeline yet arrives with the refresh the event triggers.
      const { homeworkId, classId, mode, sheets, printedAt } = event.printed;
      return update(homeworkId, (hw) => ({
        ...hw,
        printing: {
          genericSheets: hw.printing.genericSheets + (mode === 'class' || classId === null ? sheets : 0),
          lastPrintedAt: printedAt,
        },
        // A reprint replaces the class's count (the server keeps the latest per-student print).
        classes:
          mode === 'student' && classId !== null
            ? hw.classes.map((c) => (c.classId === classId ? { ...c, printed: sheets } : c))
            : hw.classes,
      }));
    }
    case 'recognition': {
      const { homeworkId, stored, recognised, pending, review } = event.progress;
      return update(homeworkId, (hw) => ({ ...hw, pages: { stored, recognised, pending }, review }));
    }
    case 'marking': {
      const { homeworkId, questionNo, done } = event.progress;
      return update(homeworkId, (hw) => ({
        ...hw,
        questions: hw.questions.map((q) => {
          if (q.no !== questionNo || done < q.done) return q;
          const gained = done - q.done;
          // A newly scored answer leaves "in progress" first, then "to do".
          const fromProgress = Math.min(gained, q.inProgress);
          return { ...q, done, inProgress: q.inProgress - fromProgress, todo: Math.max(0, q.todo - (gained - fromProgress)) };
        }),
      }));
    }
  }
}

/** The next panel in the rotation. */
export function nextPanel(panels: readonly ScreenPanel[], current: ScreenPanel | null): ScreenPanel | null {
  if (panels.length === 0) return null;
  const at = current === null ? -1 : panels.indexOf(current);
  return panels[(at + 1) % panels.length]!;
}

export type PipelineTotals = {
  /** Per-student sheets printed over the classes that printed them; null when no class did. */
  printed: number | null;
  enrolled: number;
  scanned: number;
  review: number;
  complete: number;
  absent: number;
};

/** A homework's figures summed over the classes shown. */
export function pipelineTotals(hw: PipelineHomework): PipelineTotals {
  return hw.classes.reduce(
    (sum, c) => ({
      printed: c.printed === null ? sum.printed : (sum.printed ?? 0) + c.printed,
      enrolled: sum.enrolled + c.enrolled,
      scanned: sum.scanned + c.scanned,
      review: sum.review + c.review,
      complete: sum.complete + c.complete,
      absent: sum.absent + c.absent,
    }),
    { printed: null as number | null, enrolled: 0, scanned: 0, review: 0, complete: 0, absent: 0 },
  );
}

/**
 * 已印 as the screen says it: the per-student sheets printed, "通用卡" when only generic masters were
 * printed (their copies are not known), both when both, 未打印 when nothing.
 */
export function printedText(hw: PipelineHomework): string {
  const { printed } = pipelineTotals(hw);
  const generic = hw.printing.genericSheets > 0;
  if (printed === null) return generic ? '通用卡' : '未打印';
  return generic ? `${printed}+通用卡` : String(printed);
}

/** A class's 已印 cell: its per-student sheets, or 通用卡 / — when the homework printed only generic masters / nothing for it. */
export function classPrintedText(printed: number | null, hw: PipelineHomework): string {
  if (printed !== null) return String(printed);
  return hw.printing.genericSheets > 0 ? '通用卡' : '—';
}

/** A share as a whole percent for a bar; 0 when there is nothing to count. */
export function percent(part: number, whole: number): number {
  return whole > 0 ? Math.round(Math.min(1, Math.max(0, part / whole)) * 100) : 0;
}

/** 得分率 as text: 78.4%, or — when unknown (never 0). */
export function rateText(rate: number | null): string {
  return rate === null ? '—' : `${(rate * 100).toFixed(1)}%`;
}

/** hh:mm:ss (24 h) of an ISO time, in the display's time zone. */
export function clockText(iso: string | Date): string {
  const at = typeof iso === 'string' ? new Date(iso) : iso;
  return [at.getHours(), at.getMinutes(), at.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/** The estimated finish as the display says it. */
export function finishText(hw: PipelineHomework, generatedAt: string): string {
  if (hw.status === 'finished') return '已完成';
  if (hw.estimatedFinish === null) return '暂无法估计';
  if (hw.estimatedFinish === generatedAt) return '即将完成';
  return `预计 ${clockText(hw.estimatedFinish).slice(0, 5)} 完成`;
}

/**
 * Which of today's homework cards the pipeline panel shows (their indexes, in order): all of them when they
 * fit the panel's height together; otherwise, most recent first, every card that still fits whole with room
 * left for the 另有 N 份 line (`moreHeight`, its gap included), so that a tall card that does not fit
 * leaves its place to a shorter one after it rather than to empty wall. The first card is always shown.
 */
export function cardsThatFit(available: number, heights: readonly number[], gap: number, moreHeight: number): number[] {
  const all = heights.map((_, index) => index);
  const total = heights.reduce((sum, height) => sum + height, 0) + gap * Math.max(0, heights.length - 1);
  if (total <= available) return all;
  const shown: number[] = [];
  let used = 0;
  for (const index of all) {
    const needed = (shown.length > 0 ? gap : 0) + heights[index]!;
    if (shown.length === 0 || used + needed + moreHeight <= available) {
      shown.push(index);
      used += needed;
    }
  }
  return shown;
}

export type MarkingTotals = { todo: number; inProgress: number; done: number; missing: number };

/** Hand-marked answers summed over questions (a homework's, or some of them): to do, in progress, done and missing. */
export function markingTotals(questions: PipelineHomework['questions']): MarkingTotals {
  return questions.reduce(
    (sum, q) => ({
      todo: sum.todo + q.todo,
      inProgress: sum.inProgress + q.inProgress,
      done: sum.done + q.done,
      missing: sum.missing + q.missing,
    }),
    { todo: 0, inProgress: 0, done: 0, missing: 0 },
  );
}
