import { describe, expect, it } from 'vitest';
import { questionBanks } from '../../../server/db/seed-data/question-bank';
import {
  BLANK_PATTERN,
  SEED_QUESTION_TYPES,
  SEED_SUBJECTS,
  type SeedQuestion,
  type SeedSubjectBank,
  type SeedTreeNode,
  gradeOfChapter,
  seedQuestionSchema,
  seedSubjectBankSchema,
  treePaths,
} from '../../../server/db/seed-data/question-bank.types';

const allQuestions = questionBanks.flatMap((bank) => bank.questions);

/** Unescaped `$` delimiters come in pairs, so every inline formula is closed. */
function dollarsBalanced(text: string): boolean {
  return (text.match(/(?<!\\)\$/g)?.length ?? 0) % 2 === 0;
}

function blankCount(stem: string): number {
  return stem.match(BLANK_PATTERN)?.length ?? 0;
}

function nodeNames(nodes: readonly SeedTreeNode[]): string[] {
  return nodes.flatMap((n) => [n.name, ...nodeNames(n.children ?? [])]);
}

/** Every problem with one question, as readable strings, so a failure names the key and the rule. */
function problemsOf(q: SeedQuestion, bank: SeedSubjectBank): string[] {
  const problems: string[] = [];
  const chapterPaths = new Set(treePaths(bank.chapters).map((p) => p.join('/')));
  const knowledge = new Set(nodeNames(bank.knowledgePoints));
  if (!chapterPaths.has(q.chapter.join('/'))) problems.push(`章节不存在: ${q.chapter.join('/')}`);
  for (const kp of q.knowledgePoints) if (!knowledge.has(kp)) problems.push(`知识点不存在: ${kp}`);
  if (gradeOfChapter(q.chapter) !== q.grade) problems.push(`年级 ${q.grade} 与章节 ${q.chapter[0]} 不符`);

  const choice = q.type === 'single' || q.type === 'multiple';
  if (choice && q.options?.length !== 4) problems.push('选择题必须恰有 4 个选项');
  if (!choice && q.options !== undefined) problems.push('非选择题不能有选项');
  if (choice && new Set(q.options).size !== q.options?.length) problems.push('选项重复');
  if (q.options?.some((o) => /^[A-D][.．、]/.test(o))) problems.push('选项文字不应带 A. 前缀');

  const letters = 'ABCD'.slice(0, q.options?.length ?? 0);
  if (q.type === 'single' && !(q.answer.length === 1 && q.answer[0]?.length === 1 && letters.includes(q.answer[0]))) {
    problems.push(`单选答案 ${q.answer.join()} 不是选项中的一个字母`);
  }
  if (q.type === 'multiple') {
    const sorted = [...new Set(q.answer)].sort();
    const ok =
      q.answer.length >= 2 && q.answer.every((a) => a.length === 1 && letters.includes(a)) && sorted.join() === q.answer.join();
    if (!ok) problems.push(`多选答案 ${q.answer.join()} 不是至少 2 个按序排列的不同字母`);
  }
  if (q.type === 'judge' && !(q.answer.length === 1 && (q.answer[0] === '对' || q.answer[0] === '错'))) {
    problems.push(`判断答案 ${q.answer.join()} 不是 对/错`);
  }
  if (q.type === 'blank' && blankCount(q.stem) !== q.answer.length) {
    problems.push(`填空题有 ${blankCount(q.stem)} 个空，答案 ${q.answer.length} 个`);
  }
  if (q.type === 'subjective' && q.answer.length !== 1) problems.push('解答题只有一条参考答案');
  if (q.answer.some((a) => a.split('|').some((alt) => alt.trim() === ''))) problems.push('答案含空的备选项');
  if (q.analysis.trim().length < 10) problems.push('解析为空或过短');

  for (const [field, text] of [
    ['stem', q.stem],
    ['analysis', q.analysis],
    ...(q.options ?? []).map((o, i) => [`options[${i}]`, o]),
    ...q.answer.map((a, i) => [`answer[${i}]`, a]),
  ]) {
    if (text !== undefined && !dollarsBalanced(text)) problems.push(`${field} 中的 $ 不成对`);
  }
  const html = [q.stem, q.analysis, ...(q.options ?? [])].map((t) => t.replace(/\$[^$]*\$/g, '')).join('\n');
  if (/<(?!\/?(p|br|u|strong|sub|sup)\b)\/?[a-z]/i.test(html)) problems.push('含不允许的 HTML 标签');
  return problems;
}

describe('the demo question bank', () => {
  it('has one bank for each of 数学, 语文 and 英语', () => {
    expect(questionBanks.map((b) => b.subject).sort()).toEqual([...SEED_SUBJECTS].sort());
  });

  it.each(questionBanks.map((b) => [b.subject, b] as const))('%s parses with the zod schema', (_subject, bank) => {
    const result = seedSubjectBankSchema.safeParse(bank);
    expect(result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([]);
  });

  it.each(questionBanks.map((b) => [b.subject, b] as const))('%s has at least 110 questions and every type', (_subject, bank) => {
    expect(bank.questions.length).toBeGreaterThanOrEqual(110);
    expect(new Set(bank.questions.map((q) => q.type))).toEqual(new Set(SEED_QUESTION_TYPES));
  });

  it.each(questionBanks.map((b) => [b.subject, b] as const))(
    '%s uses every difficulty 1..5, mostly 2 and 3',
    (_subject, bank) => {
      const levels = bank.questions.map((q) => q.difficulty);
      expect(new Set(levels)).toEqual(new Set([1, 2, 3, 4, 5]));
      expect(levels.filter((d) => d === 2 || d === 3).length / levels.length).toBeGreaterThan(0.5);
    },
  );

  it('has keys unique across all subjects', () => {
    const keys = allQuestions.map((q) => q.key);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  it.each(questionBanks.map((b) => [b.subject, b] as const))(
    '%s names each knowledge point once, so a name is unambiguous',
    (_subject, bank) => {
      const names = nodeNames(bank.knowledgePoints);
      expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    },
  );

  it.each(questionBanks.map((b) => [b.subject, b] as const))('%s questions are internally consistent', (_subject, bank) => {
    const problems = bank.questions.flatMap((q) => problemsOf(q, bank).map((p) => `${q.key}: ${p}`));
    expect(problems).toEqual([]);
  });

  it('has no two identical questions', () => {
    const stems = allQuestions.map((q) => [q.type, q.stem, ...(q.options ?? [])].join('|'));
    expect(stems.filter((s, i) => stems.indexOf(s) !== i)).toEqual([]);
  });
});

describe('the question bank checks', () => {
  const bank = questionBanks[0] as SeedSubjectBank;
  const good = bank.questions.find((q) => q.type === 'single') as SeedQuestion;
  const blank = bank.questions.find((q) => q.type === 'blank') as SeedQuestion;

  it('reject a single-choice answer outside A-D, unsorted multiple answers and a judge answer other than 对/错', () => {
    expect(seedQuestionSchema.safeParse({ ...good, answer: ['E'] }).success).toBe(false);
    expect(seedQuestionSchema.safeParse({ ...good, type: 'multiple', answer: ['C', 'A'] }).success).toBe(false);
    expect(seedQuestionSchema.safeParse({ ...good, type: 'multiple', answer: ['A'] }).success).toBe(false);
    expect(seedQuestionSchema.safeParse({ ...good, type: 'judge', options: undefined, answer: ['正确'] }).success).toBe(false);
    expect(problemsOf({ ...good, type: 'multiple', answer: ['B', 'A'] }, bank)).toContain(
      '多选答案 B,A 不是至少 2 个按序排列的不同字母',
    );
  });

  it('reject three options, options on a blank question and a blank count that differs from the answers', () => {
    expect(seedQuestionSchema.safeParse({ ...good, options: good.options?.slice(0, 3) }).success).toBe(false);
    expect(seedQuestionSchema.safeParse({ ...blank, options: ['1', '2', '3', '4'] }).success).toBe(false);
    expect(seedQuestionSchema.safeParse({ ...blank, answer: [...blank.answer, 'x'] }).success).toBe(false);
    expect(problemsOf({ ...blank, stem: `${blank.stem} ______` }, bank)[0]).toMatch(/^填空题有/);
  });

  it('reject an unknown chapter or knowledge point, an unbalanced $ and an empty analysis', () => {
    expect(problemsOf({ ...good, chapter: [...good.chapter, '不存在的节'] }, bank)).toContain(
      `章节不存在: ${[...good.chapter, '不存在的节'].join('/')}`,
    );
    expect(problemsOf({ ...good, knowledgePoints: ['不存在的知识点'] }, bank)).toContain('知识点不存在: 不存在的知识点');
    expect(problemsOf({ ...good, stem: '计算 $x^2' }, bank)).toContain('stem 中的 $ 不成对');
    expect(problemsOf({ ...good, analysis: ' ' }, bank)).toContain('解析为空或过短');
    expect(problemsOf({ ...good, stem: '<img src=x>看图' }, bank)).toContain('含不允许的 HTML 标签');
    expect(seedQuestionSchema.safeParse({ ...good, analysis: '  ' }).success).toBe(false);
  });

  it('accept the real questions they are built from', () => {
    expect(problemsOf(good, bank)).toEqual([]);
    expect(problemsOf(blank, bank)).toEqual([]);
  });
});
