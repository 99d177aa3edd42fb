/**
 * The 试题篮 of the compose page: the questions picked for a paper, grouped in sections (by type by
 * default, titles editable), in order, each with its score, plus the paper's title, subject and size.
 * A small zustand store persisted to local storage (through the local-storage adapter), so a refresh
 * loses nothing. Pure state: saving the paper is the page's job.
 */
import { create } from 'zustand';
import { createJSONStorage, persist, type StateStorage } from 'zustand/middleware';
import { getLocalItem, removeLocalItem, setLocalItem } from '../../shared/adapters/local-storage';
import {
  QUESTION_TYPE_LABELS,
  QUESTION_TYPES,
  type PaperDetail,
  type PaperDraft,
  type PaperInput,
  type PaperSize,
  type Question,
  type QuestionType,
} from '../../shared/contract/papers';

/** The score a question gets when it enters the basket. */
export const DEFAULT_SCORES: Record<QuestionType, number> = { single: 3, multiple: 4, judge: 3, blank: 3, subjective: 8 };

export type BasketItem = { question: Question; score: number };
export type BasketSection = { id: string; title: string; type: QuestionType | null; items: BasketItem[] };

export type BasketState = {
  /** The saved paper being edited, or null for a new one. */
  paperId: number | null;
  subjectId: number | null;
  title: string;
  paperSize: PaperSize;
  sections: BasketSection[];
};

export type BasketActions = {
  add: (question: Question) => void;
  remove: (questionId: number) => void;
  setScore: (questionId: number, score: number) => void;
  /** Moves a question to `index` of section `sectionId` (drag and drop, also across sections). */
  moveTo: (questionId: number, sectionId: string, index: number) => void;
  /** Moves a question one place up (-1) or down (+1) inside its section. */
  moveBy: (questionId: number, delta: -1 | 1) => void;
  moveSection: (sectionId: string, delta: -1 | 1) => void;
  renameSection: (sectionId: string, title: string) => void;
  setMeta: (meta: Partial<Pick<BasketState, 'title' | 'paperSize' | 'subjectId'>>) => void;
  /** Replaces the basket with a paper (auto-composed draft or a saved paper to edit). */
  load: (paper: PaperDraft | PaperDetail, paperId: number | null) => void;
  clear: () => void;
};

export type BasketStore = BasketState & BasketActions;

export const BASKET_STORAGE_KEY = 'sh-paper-basket';

const EMPTY: BasketState = { paperId: null, subjectId: null, title: '', paperSize: 'A4', sections: [] };

let sectionSeq = 0;
function newSectionId(): string {
  sectionSeq += 1;
  return `s${Date.now().toString(36)}${sectionSeq}`;
}

/** Local storage through the adapter: a missing or unreadable value reads as nothing. */
export const localBasketStorage: StateStorage = {
  getItem: (name) => {
    const value = getLocalItem(name);
    return typeof value === 'object' && value !== null && 'state' in value ? JSON.stringify(value) : null;
  },
  setItem: (name, value) => {
    setLocalItem(name, JSON.parse(value) as unknown);
  },
  removeItem: (name) => removeLocalItem(name),
};

function mapItems(sections: BasketSection[], fn: (items: BasketItem[], section: BasketSection) => BasketItem[]): BasketSection[] {
  return sections.map((s) => ({ ...s, items: fn(s.items, s) })).filter((s) => s.items.length > 0);
}

function typeRank(type: QuestionType | null): number {
  return type === null ? QUESTION_TYPES.length : QUESTION_TYPES.indexOf(type);
}

export function createBasketStore(storage: StateStorage = localBasketStorage) {
  return create<BasketStore>()(
    persist(
      (set) => ({
        ...EMPTY,
        add: (question) =>
          set((state) => {
            if (state.sections.some((s) => s.items.some((i) => i.question.id === question.id))) return state;
            const item = { question, score: DEFAULT_SCORES[question.type] };
            const subjectId = state.subjectId ?? question.subjectId;
            const target = state.sections.find((s) => s.type === question.type);
            if (target) {
              return {
                subjectId,
                sections: state.sections.map((s) => (s === target ? { ...s, items: [...s.items, item] } : s)),
              };
            }
            const section: BasketSection = {
              id: newSectionId(),
              title: QUESTION_TYPE_LABELS[question.type],
              type: question.type,
              items: [item],
            };
            // A new type's section goes where the usual type order puts it.
            const at = state.sections.findIndex((s) => typeRank(s.type) > typeRank(question.type));
            const sections = [...state.sections];
            sections.splice(at === -1 ? sections.length : at, 0, section);
            return { subjectId, sections };
          }),
        remove: (questionId) =>
          set((state) => {
            const sections = mapItems(state.sections, (items) => items.filter((i) => i.question.id !== questionId));
            return sections.length === 0
              ? { sections, paperId: state.paperId, subjectId: state.paperId ? state.subjectId : null }
              : { sections };
          }),
        setScore: (questionId, score) =>
          set((state) => ({
            sections: mapItems(state.sections, (items) => items.map((i) => (i.question.id === questionId ? { ...i, score } : i))),
          })),
        moveTo: (questionId, sectionId, index) =>
          set((state) => {
            const moving = state.sections.flatMap((s) => s.items).find((i) => i.question.id === questionId);
            if (!moving || !state.sections.some((s) => s.id === sectionId)) return state;
            const sections = state.sections.map((s) => {
              const items = s.items.filter((i) => i.question.id !== questionId);
              if (s.id !== sectionId) return { ...s, items };
              const fromIndex = s.items.findIndex((i) => i.question.id === questionId);
              // Dropping below itself in the same list: the removal shifted the target up by one.
              const at = fromIndex !== -1 && fromIndex < index ? index - 1 : index;
              items.splice(Math.max(0, Math.min(at, items.length)), 0, moving);
              return { ...s, items };
            });
            return { sections: sections.filter((s) => s.items.length > 0) };
          }),
        moveBy: (questionId, delta) =>
          set((state) => ({
            sections: state.sections.map((s) => {
              const from = s.items.findIndex((i) => i.question.id === questionId);
              const to = from + delta;
              if (from === -1 || to < 0 || to >= s.items.length) return s;
              const items = [...s.items];
              const [moved] = items.splice(from, 1);
              if (moved) items.splice(to, 0, moved);
              return { ...s, items };
            }),
          })),
        moveSection: (sectionId, delta) =>
          set((state) => {
            const from = state.sections.findIndex((s) => s.id === sectionId);
            const to = from + delta;
            if (from === -1 || to < 0 || to >= state.sections.length) return state;
            const sections = [...state.sections];
            const [moved] = sections.splice(from, 1);
            if (moved) sections.splice(to, 0, moved);
            return { sections };
          }),
        renameSection: (sectionId, title) =>
          set((state) => ({ sections: state.sections.map((s) => (s.id === sectionId ? { ...s, title } : s)) })),
        setMeta: (meta) => set(meta),
        load: (paper, paperId) =>
          set({
            paperId,
            subjectId: paper.subjectId,
            title: paper.title,
            paperSize: paper.paperSize,
            sections: paper.sections
              .filter((s) => s.questions.length > 0)
              .map((s) => {
                const types = new Set(s.questions.map((q) => q.question.type));
                const [only] = [...types];
                return {
                  id: newSectionId(),
                  title: stripSectionNumber(s.title),
                  type: types.size === 1 && only ? only : null,
                  items: s.questions.map((q) => ({ question: q.question, score: q.score })),
                };
              }),
          }),
        clear: () => set({ ...EMPTY }),
      }),
      {
        name: BASKET_STORAGE_KEY,
        version: 1,
        storage: createJSONStorage(() => storage),
        partialize: ({ paperId, subjectId, title, paperSize, sections }) => ({ paperId, subjectId, title, paperSize, sections }),
      },
    ),
  );
}

/** The page's basket, persisted in this browser. */
export const useBasketStore = createBasketStore();

// ---- derived values --------------------------------------------------------------------------

export function basketCount(sections: readonly BasketSection[]): number {
  return sections.reduce((n, s) => n + s.items.length, 0);
}

export function sectionScore(section: BasketSection): number {
  return section.items.reduce((sum, i) => sum + i.score, 0);
}

export function basketTotal(sections: readonly BasketSection[]): number {
  // Scores may be halves: sum in tenths to keep 0.5 + 0.5 + ... exact.
  return Math.round(sections.reduce((sum, s) => sum + sectionScore(s) * 10, 0)) / 10;
}

export function basketQuestionIds(sections: readonly BasketSection[]): Set<number> {
  return new Set(sections.flatMap((s) => s.items.map((i) => i.question.id)));
}

/** The request body that saves the basket as a paper. */
export function basketToPaperInput(state: BasketState, schoolYearId: number): PaperInput {
  return {
    title: state.title.trim(),
    subjectId: state.subjectId ?? 0,
    schoolYearId,
    paperSize: state.paperSize,
    sections: state.sections.map((s, i) => ({
      title: numberedSectionTitle(i, s.title.trim()),
      questions: s.items.map((i) => ({ questionId: i.question.id, score: i.score })),
    })),
  };
}

const CHINESE_DIGITS = ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九', '十'];

/** 1 → 一, 12 → 十二, 20 → 二十 (section numbers up to 99). */
export function chineseNumeral(n: number): string {
  if (n <= 10) return CHINESE_DIGITS[n] ?? String(n);
  const tens = Math.floor(n / 10);
  const ones = n % 10;
  return `${tens === 1 ? '' : (CHINESE_DIGITS[tens] ?? '')}十${ones === 0 ? '' : (CHINESE_DIGITS[ones] ?? '')}`;
}

const SECTION_NUMBER = /^[一二三四五六七八九十]+、\s*/;

/** A section title without its leading numeral ("二、填空题" → "填空题"). */
export function stripSectionNumber(title: string): string {
  return title.replace(SECTION_NUMBER, '');
}

/** A section title with its numeral ("填空题" → "二、填空题"); a title that has one keeps it. */
export function numberedSectionTitle(index: number, title: string): string {
  return SECTION_NUMBER.test(title) ? title : `${chineseNumeral(index + 1)}、${title}`;
}

export function formatScore(score: number): string {
  return Number.isInteger(score) ? String(score) : score.toFixed(1);
}
