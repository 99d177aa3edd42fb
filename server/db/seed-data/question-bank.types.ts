/**
 * Shape of the demo question bank (题库) seed data: per subject, a textbook chapter tree (章节), a
 * knowledge-point tree (知识点) and the questions that hang on both. Only describes and validates the
 * data; loading it into the database is the seed's job.
 */
import { z } from 'zod';

export const SEED_SUBJECTS = ['数学', '语文', '英语'] as const;
export const SEED_GRADES = ['七年级', '八年级', '九年级'] as const;
export const SEED_QUESTION_TYPES = ['single', 'multiple', 'judge', 'blank', 'subjective'] as const;
/** 容易 / 较易 / 中等 / 较难 / 困难 */
export const SEED_DIFFICULTIES = [1, 2, 3, 4, 5] as const;
/** A blank in a fill-in stem: six or more underscores. */
export const BLANK_PATTERN = /_{6,}/g;

export const seedSubjectSchema = z.enum(SEED_SUBJECTS);
export const seedGradeSchema = z.enum(SEED_GRADES);
export const seedQuestionTypeSchema = z.enum(SEED_QUESTION_TYPES);
export const seedDifficultySchema = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]);

const nonEmpty = z.string().trim().min(1);

export const seedQuestionSchema = z
  .object({
    key: z.string().regex(/^[a-z]+(-[a-z0-9]+)+$/),
    subject: seedSubjectSchema,
    grade: seedGradeSchema,
    chapter: z.array(nonEmpty).min(1),
    knowledgePoints: z.array(nonEmpty).min(1),
    type: seedQuestionTypeSchema,
    difficulty: seedDifficultySchema,
    stem: nonEmpty,
    options: z.array(nonEmpty).length(4).optional(),
    answer: z.array(nonEmpty).min(1),
    analysis: nonEmpty,
    score: z.number().positive().max(20).optional(),
    source: z.string().optional(),
  })
  .superRefine((q, ctx) => {
    const choice = q.type === 'single' || q.type === 'multiple';
    if (choice !== (q.options !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['options'], message: choice ? '选择题必须有 4 个选项' : '非选择题不能有选项' });
    }
    const letters = q.answer.join('');
    switch (q.type) {
      case 'single':
        if (q.answer.length !== 1 || !/^[A-D]$/.test(letters)) {
          ctx.addIssue({ code: 'custom', path: ['answer'], message: '单选题答案必须是 A-D 中的一个字母' });
        }
        break;
      case 'multiple':
        if (q.answer.length < 2 || q.answer.length > 4 || !/^A?B?C?D?$/.test(letters) || letters.length !== q.answer.length) {
          ctx.addIssue({ code: 'custom', path: ['answer'], message: '多选题答案必须是 2-4 个按序排列的不同字母' });
        }
        break;
      case 'judge':
        if (q.answer.length !== 1 || (letters !== '对' && letters !== '错')) {
          ctx.addIssue({ code: 'custom', path: ['answer'], message: '判断题答案必须是“对”或“错”' });
        }
        break;
      case 'blank': {
        const blanks = q.stem.match(BLANK_PATTERN)?.length ?? 0;
        if (blanks !== q.answer.length) {
          ctx.addIssue({ code: 'custom', path: ['answer'], message: `填空题有 ${blanks} 个空，却有 ${q.answer.length} 个答案` });
        }
        break;
      }
      case 'subjective':
        if (q.answer.length !== 1) {
          ctx.addIssue({ code: 'custom', path: ['answer'], message: '解答题只有一条参考答案' });
        }
        break;
    }
  });

export type SeedSubject = z.infer<typeof seedSubjectSchema>;
export type SeedGrade = z.infer<typeof seedGradeSchema>;
export type SeedQuestionType = z.infer<typeof seedQuestionTypeSchema>;
export type SeedDifficulty = z.infer<typeof seedDifficultySchema>;
export type SeedQuestion = z.infer<typeof seedQuestionSchema>;

export interface SeedTreeNode {
  name: string;
  children?: SeedTreeNode[];
}

export const seedTreeNodeSchema: z.ZodType<SeedTreeNode> = z.lazy(() =>
  z.object({
    name: nonEmpty,
    children: z.array(seedTreeNodeSchema).min(1).optional(),
  }),
);

export const seedSubjectBankSchema = z
  .object({
    subject: seedSubjectSchema,
    chapters: z.array(seedTreeNodeSchema).min(1),
    knowledgePoints: z.array(seedTreeNodeSchema).min(1),
    questions: z.array(seedQuestionSchema).min(1),
  })
  .superRefine((bank, ctx) => {
    bank.questions.forEach((q, i) => {
      if (q.subject !== bank.subject) {
        ctx.addIssue({ code: 'custom', path: ['questions', i, 'subject'], message: `${q.key} 不属于${bank.subject}` });
      }
    });
  });

export type SeedSubjectBank = z.infer<typeof seedSubjectBankSchema>;

/** A question as written in a bank file: subject, grade, source and score are filled in by `defineQuestions`. */
export type SeedQuestionDraft = Omit<SeedQuestion, 'subject' | 'grade'> & { grade?: SeedGrade };

const DEFAULT_SCORE: Record<SeedQuestionType, number> = { single: 3, multiple: 4, judge: 3, blank: 3, subjective: 8 };

/** The grade a chapter path belongs to, read from its volume root ('七年级上册' -> '七年级'). */
export function gradeOfChapter(chapter: readonly string[]): SeedGrade {
  const grade = SEED_GRADES.find((g) => chapter[0]?.startsWith(g));
  if (!grade) throw new Error(`章节 ${chapter.join(' / ')} 不属于任何年级`);
  return grade;
}

export function defineQuestions(subject: SeedSubject, drafts: readonly SeedQuestionDraft[]): SeedQuestion[] {
  return drafts.map((d) => ({
    ...d,
    subject,
    grade: d.grade ?? gradeOfChapter(d.chapter),
    score: d.score ?? DEFAULT_SCORE[d.type],
    source: d.source ?? '原创',
  }));
}

/** A tree written compactly: a branch maps child names to their own spec, a list holds leaf names. */
export interface SeedTreeSpec {
  [name: string]: SeedTreeSpec | readonly string[];
}

export function treeFrom(spec: SeedTreeSpec | readonly string[]): SeedTreeNode[] {
  if (isLeafList(spec)) return spec.map((name) => ({ name }));
  return Object.entries(spec).map(([name, child]) => {
    const children = treeFrom(child);
    return children.length > 0 ? { name, children } : { name };
  });
}

function isLeafList(spec: SeedTreeSpec | readonly string[]): spec is readonly string[] {
  return Array.isArray(spec);
}

/** Every root-to-node path of a tree, internal nodes included. */
export function treePaths(nodes: readonly SeedTreeNode[], prefix: readonly string[] = []): string[][] {
  return nodes.flatMap((node) => {
    const path = [...prefix, node.name];
    return [path, ...treePaths(node.children ?? [], path)];
  });
}

/**
 * Resolves a chapter path from its last names, so bank files need not spell out whole paths:
 * `ch('1.2 数轴')` or `ch('七年级上册', '第一单元')`. Throws at load time unless exactly one path matches.
 */
export function chapterLookup(chapters: readonly SeedTreeNode[]): (...tail: string[]) => string[] {
  const paths = treePaths(chapters);
  return (...tail) => {
    const found = paths.filter((p) => p.length >= tail.length && tail.every((name, i) => p[p.length - tail.length + i] === name));
    if (found.length !== 1 || !found[0]) throw new Error(`章节 ${tail.join(' / ')} 匹配到 ${found.length} 处`);
    return found[0];
  };
}
