import { describe, expect, it } from 'vitest';
import type { StateStorage } from 'zustand/middleware';
import {
  basketCount,
  basketToPaperInput,
  basketTotal,
  createBasketStore,
  DEFAULT_SCORES,
} from '../../../src/features/papers/basket.store';
import { question } from './papers-test-kit';

function memoryStorage(): StateStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (name) => data.get(name) ?? null,
    setItem: (name, value) => void data.set(name, value),
    removeItem: (name) => void data.delete(name),
  };
}

describe('the 试题篮 store', () => {
  it('groups questions into one section per type, in the usual type order, each with its default score', () => {
    const store = createBasketStore(memoryStorage());
    store.getState().add(question(1, 'subjective'));
    store.getState().add(question(2, 'single'));
    store.getState().add(question(3, 'single'));
    store.getState().add(question(4, 'blank'));
    const { sections } = store.getState();
    expect(sections.map((s) => s.title)).toEqual(['单选题', '填空题', '解答题']);
    expect(sections[0]!.items.map((i) => i.question.id)).toEqual([2, 3]);
    expect(sections[2]!.items[0]!.score).toBe(DEFAULT_SCORES.subjective);
    expect(store.getState().subjectId).toBe(1);
  });

  it('adds a question only once and drops a section when its last question is removed', () => {
    const store = createBasketStore(memoryStorage());
    store.getState().add(question(1, 'single'));
    store.getState().add(question(1, 'single'));
    store.getState().add(question(2, 'judge'));
    expect(basketCount(store.getState().sections)).toBe(2);
    store.getState().remove(2);
    expect(store.getState().sections.map((s) => s.title)).toEqual(['单选题']);
  });

  it('keeps the total live as scores change, halves included', () => {
    const store = createBasketStore(memoryStorage());
    store.getState().add(question(1, 'single'));
    store.getState().add(question(2, 'subjective'));
    expect(basketTotal(store.getState().sections)).toBe(DEFAULT_SCORES.single + DEFAULT_SCORES.subjective);
    store.getState().setScore(2, 12.5);
    expect(basketTotal(store.getState().sections)).toBe(15.5);
  });

  it('reorders inside a section with up/down and moves a question into another section by drop', () => {
    const store = createBasketStore(memoryStorage());
    for (const id of [1, 2, 3]) store.getState().add(question(id, 'single'));
    store.getState().add(question(4, 'blank'));
    store.getState().moveBy(3, -1);
    expect(store.getState().sections[0]!.items.map((i) => i.question.id)).toEqual([1, 3, 2]);
    store.getState().moveBy(1, -1);
    expect(store.getState().sections[0]!.items.map((i) => i.question.id)).toEqual([1, 3, 2]);
    const blankSection = store.getState().sections[1]!.id;
    store.getState().moveTo(1, blankSection, 0);
    expect(store.getState().sections[0]!.items.map((i) => i.question.id)).toEqual([3, 2]);
    expect(store.getState().sections[1]!.items.map((i) => i.question.id)).toEqual([1, 4]);
    // Dropping below itself in the same list lands it after the item it was dropped on.
    store.getState().moveTo(3, store.getState().sections[0]!.id, 2);
    expect(store.getState().sections[0]!.items.map((i) => i.question.id)).toEqual([2, 3]);
  });

  it('survives a reload: a new store on the same storage has the same basket', async () => {
    const storage = memoryStorage();
    const first = createBasketStore(storage);
    first.getState().add(question(7, 'multiple'));
    first.getState().setScore(7, 6);
    first.getState().setMeta({ title: '周测', paperSize: 'A3' });
    const second = createBasketStore(storage);
    await second.persist.rehydrate();
    expect(second.getState().title).toBe('周测');
    expect(second.getState().paperSize).toBe('A3');
    expect(second.getState().sections[0]!.items[0]).toMatchObject({ score: 6, question: { id: 7 } });
  });

  it('saves sections with their numerals and scores, and loads a paper back without the numerals', () => {
    const store = createBasketStore(memoryStorage());
    store.getState().add(question(1, 'single'));
    store.getState().add(question(2, 'blank'));
    store.getState().renameSection(store.getState().sections[1]!.id, '基础填空');
    store.getState().setMeta({ title: ' 第一章测验 ' });
    const input = basketToPaperInput(store.getState(), 3);
    expect(input).toEqual({
      title: '第一章测验',
      subjectId: 1,
      schoolYearId: 3,
      paperSize: 'A4',
      sections: [
        { title: '一、单选题', questions: [{ questionId: 1, score: DEFAULT_SCORES.single }] },
        { title: '二、基础填空', questions: [{ questionId: 2, score: DEFAULT_SCORES.blank }] },
      ],
    });
    store.getState().load(
      {
        title: '数学练习',
        subjectId: 1,
        schoolYearId: 1,
        paperSize: 'A4',
        totalScore: 5,
        subjectName: '数学',
        questionCount: 1,
        sections: [
          {
            title: '一、单选题（每题 5 分，共 5 分）',
            questions: [{ questionId: 9, no: 1, score: 5, question: question(9, 'single') }],
          },
        ],
      },
      null,
    );
    expect(store.getState().sections[0]!.title).toBe('单选题（每题 5 分，共 5 分）');
    expect(store.getState().title).toBe('数学练习');
  });
});
