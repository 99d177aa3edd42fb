import { describe, expect, it } from 'vitest';
import {
  applyEvent,
  cardsThatFit,
  classPrintedText,
  finishText,
  nextPanel,
  panelOf,
  percent,
  pipelineTotals,
  printedText,
  rateText,
} from '../../../src/features/large-screen/panel-data';
import type { LargeScreenSnapshot, PipelineHomework } from '../../../src/shared/contract/large-screen';

const homework = (over: Partial<PipelineHomework> = {}): PipelineHomework => ({
  homeworkId: 7,
  title: '第一单元',
  subjectName: '数学',
  status: 'scanning',
  printing: { genericSheets: 0, lastPrintedAt: null },
  pages: { stored: 10, recognised: 8, pending: 2 },
  review: 1,
  arbitration: 0,
  classes: [
    { classId: 1, name: '一班', printed: 40, enrolled: 40, scanned: 10, review: 1, complete: 4, absent: 1 },
    { classId: 2, name: '二班', printed: null, enrolled: 38, scanned: 0, review: 0, complete: 0, absent: 0 },
  ],
  questions: [{ no: 5, todo: 6, inProgress: 2, done: 2, missing: 0 }],
  teachers: [],
  pace: { scannedStudents: 10, markings: 2 },
  estimatedFinish: null,
  ...over,
});

const snapshot = (pipeline: PipelineHomework[]): LargeScreenSnapshot => ({
  generatedAt: '2026-11-23T08:00:00.000Z',
  schoolName: '示范中学',
  title: '走廊',
  scopeLabel: '全校',
  panels: ['pipeline', 'marking', 'results'],
  showNames: false,
  pipeline,
  results: null,
});

describe('the large screen between snapshots', () => {
  it('writes a homework’s recognition counts from the event, and leaves other homework alone', () => {
    const other = homework({ homeworkId: 8 });
    const next = applyEvent(snapshot([homework(), other]), {
      kind: 'recognition',
      progress: { homeworkId: 7, stored: 14, recognised: 11, pending: 3, review: 2 },
    });
    expect(next.pipeline[0]!.pages).toEqual({ stored: 14, recognised: 11, pending: 3 });
    expect(next.pipeline[0]!.review).toBe(2);
    expect(next.pipeline[1]).toBe(other);
  });

  it('moves a question’s newly scored answers out of “in progress” first, then out of “to do”', () => {
    const next = applyEvent(snapshot([homework()]), {
      kind: 'marking',
      progress: { homeworkId: 7, questionNo: 5, done: 5, total: 10 },
    });
    expect(next.pipeline[0]!.questions[0]).toEqual({ no: 5, done: 5, inProgress: 0, todo: 5, missing: 0 });
    // An older count arriving late never moves the bar back.
    const late = applyEvent(next, { kind: 'marking', progress: { homeworkId: 7, questionNo: 5, done: 3, total: 10 } });
    expect(late.pipeline[0]!.questions[0]!.done).toBe(5);
  });

  it('jumps to the panel of the event when the screen has it', () => {
    expect(panelOf({ kind: 'pageStored', homeworkId: 7 }, ['results', 'pipeline'])).toBe('pipeline');
    expect(panelOf({ kind: 'marking', progress: { homeworkId: 7, questionNo: 1, done: 1, total: 2 } }, ['marking'])).toBe(
      'marking',
    );
    expect(
      panelOf({ kind: 'marking', progress: { homeworkId: 7, questionNo: 1, done: 1, total: 2 } }, ['pipeline', 'results']),
    ).toBe('pipeline');
    expect(panelOf({ kind: 'pageStored', homeworkId: null }, ['results'])).toBeNull();
  });

  it('rotates through the screen’s panels in order', () => {
    expect(nextPanel(['pipeline', 'results'], null)).toBe('pipeline');
    expect(nextPanel(['pipeline', 'results'], 'pipeline')).toBe('results');
    expect(nextPanel(['pipeline', 'results'], 'results')).toBe('pipeline');
    expect(nextPanel([], 'results')).toBeNull();
  });

  it('sums the classes shown, and prints unknown rates as — (never 0)', () => {
    expect(pipelineTotals(homework())).toEqual({ printed: 40, enrolled: 78, scanned: 10, review: 1, complete: 4, absent: 1 });
    expect(percent(11, 40)).toBe(28);
    expect(percent(3, 0)).toBe(0);
    expect(rateText(null)).toBe('—');
    expect(rateText(0.6412)).toBe('64.1%');
  });

  it('writes printed sheets from the event: a class’s per-student print replaces its count, a generic master adds to the masters', () => {
    const at = '2026-11-23T07:30:00.000Z';
    const perStudent = applyEvent(snapshot([homework()]), {
      kind: 'printed',
      printed: { homeworkId: 7, classId: 2, mode: 'student', sheets: 38, printedAt: at },
    });
    expect(perStudent.pipeline[0]!.classes.map((c) => c.printed)).toEqual([40, 38]);
    expect(perStudent.pipeline[0]!.printing).toEqual({ genericSheets: 0, lastPrintedAt: at });
    // Printed again (a lost pile): still 38, not 76.
    const reprint = applyEvent(perStudent, {
      kind: 'printed',
      printed: { homeworkId: 7, classId: 2, mode: 'student', sheets: 38, printedAt: at },
    });
    expect(reprint.pipeline[0]!.classes[1]!.printed).toBe(38);
    const generic = applyEvent(reprint, {
      kind: 'printed',
      printed: { homeworkId: 7, classId: null, mode: 'class', sheets: 1, printedAt: '2026-11-23T07:40:00.000Z' },
    });
    expect(generic.pipeline[0]!.classes.map((c) => c.printed)).toEqual([40, 38]);
    expect(generic.pipeline[0]!.printing).toEqual({ genericSheets: 1, lastPrintedAt: '2026-11-23T07:40:00.000Z' });
    // Another homework's print leaves this one alone (the refresh brings the other).
    const other = applyEvent(generic, {
      kind: 'printed',
      printed: { homeworkId: 99, classId: 1, mode: 'student', sheets: 5, printedAt: at },
    });
    expect(other.pipeline).toEqual(generic.pipeline);
    expect(
      panelOf({ kind: 'printed', printed: { homeworkId: 7, classId: 1, mode: 'student', sheets: 5, printedAt: at } }, [
        'results',
        'pipeline',
      ]),
    ).toBe('pipeline');
  });

  it('says 已印 as sheets, 通用卡 or 未打印 (never a number nobody printed)', () => {
    expect(printedText(homework())).toBe('40');
    const noneYet = homework({
      classes: homework().classes.map((c) => ({ ...c, printed: null })),
    });
    expect(printedText(noneYet)).toBe('未打印');
    expect(classPrintedText(null, noneYet)).toBe('—');
    const genericOnly = { ...noneYet, printing: { genericSheets: 1, lastPrintedAt: '2026-11-23T07:40:00.000Z' } };
    expect(printedText(genericOnly)).toBe('通用卡');
    expect(classPrintedText(null, genericOnly)).toBe('通用卡');
    expect(printedText({ ...homework(), printing: genericOnly.printing })).toBe('40+通用卡');
    expect(classPrintedText(40, genericOnly)).toBe('40');
  });

  it('says when a homework will be done', () => {
    expect(finishText(homework({ status: 'finished' }), '2026-11-23T08:00:00.000Z')).toBe('已完成');
    expect(finishText(homework({ estimatedFinish: null }), '2026-11-23T08:00:00.000Z')).toBe('暂无法估计');
    const at = new Date(2026, 10, 23, 16, 45, 0).toISOString();
    expect(finishText(homework({ estimatedFinish: at }), '2026-11-23T08:00:00.000Z')).toBe('预计 16:45 完成');
  });

  it('shows every homework card that fits the panel, keeping room for the 另有 line only when some do not', () => {
    expect(cardsThatFit(1000, [], 10, 40)).toEqual([]);
    // All fit together: no 另有 line, so the last card may use the room it would have taken.
    expect(cardsThatFit(1000, [300, 300, 380], 10, 40)).toEqual([0, 1, 2]);
    // Four do not fit: three do, with the line under them.
    expect(cardsThatFit(1000, [300, 300, 300, 300], 10, 40)).toEqual([0, 1, 2]);
    // The third fits alone but not with the line under it; the shorter fourth takes its place.
    expect(cardsThatFit(1000, [300, 300, 380, 200, 300], 10, 40)).toEqual([0, 1, 3]);
    // A card taller than the panel is still shown (cut), never none.
    expect(cardsThatFit(500, [800, 100], 10, 40)).toEqual([0]);
  });
});
