/**
 * The school-year dropdown of the top bar (spec §2, §4, §7): opening it fetches the school years of the
 * default school, choosing one saves it as the user's default, stores it as the grade info and reloads
 * the page. Owns only that sequence. The calls are the actors `fetchSchoolYears` and `saveDefault`, the
 * grade-info storage and the reload are the actions `storeGradeInfo` and `reloadPage`, all supplied by
 * the entry.
 *
 * The default school and school year can change while the page stays open (升年级 renames the school year,
 * a school is created, switched or left): the picker then sends `schoolYear.externallyChanged`, which
 * takes the new ones and forgets the fetched list (its names may be old), unless a choice is being saved
 * (the page reloads then anyway).
 *
 * Without a default school (orgId null) there is nothing to fetch: opening the dropdown goes straight to
 * `ready` with an empty list, so the picker shows its empty state instead of a spinner, and no request
 * is made.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { ClassItem } from '../shared/contract/system';

export const LOAD_FAILED_MESSAGE = '学年加载失败，请重试';
export const SAVE_FAILED_MESSAGE = '默认学年保存失败，请重试';

export type SchoolYearInput = { orgId: number | null; current: ClassItem | null };

export type SchoolYearContext = {
  orgId: number | null;
  list: ClassItem[];
  /** The school year in use (shown in the dropdown). */
  current: ClassItem | null;
  /** The school year being saved, between choosing it and the reload. */
  pending: ClassItem | null;
  error: string | null;
};

export type SchoolYearEvent =
  | { type: 'dropdown.opened' }
  | { type: 'schoolYear.selected'; id: number }
  | { type: 'schoolYear.externallyChanged'; orgId: number | null; current: ClassItem | null };

function notProvided(name: string): never {
  throw new Error(`${name} not provided`);
}

function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

export const schoolYearMachine = setup({
  types: {
    context: {} as SchoolYearContext,
    events: {} as SchoolYearEvent,
    input: {} as SchoolYearInput,
  },
  actors: {
    fetchSchoolYears: fromPromise<ClassItem[], { orgId: number }>(async () => notProvided('fetchSchoolYears')),
    saveDefault: fromPromise<void, { orgId: number; classId: number }>(async () => notProvided('saveDefault')),
  },
  actions: {
    storeGradeInfo: (_, _params: ClassItem) => notProvided('storeGradeInfo'),
    reloadPage: () => notProvided('reloadPage'),
    showEmptyList: assign({ list: [], error: null }),
    takeExternalChange: assign(({ event }) => {
      assertEvent(event, 'schoolYear.externallyChanged');
      return { orgId: event.orgId, current: event.current, list: [], error: null };
    }),
  },
  guards: {
    hasOrg: ({ context }) => context.orgId !== null,
    /** The school or the school year (its id or its name) differs from the one shown. */
    isExternalChange: ({ context, event }) => {
      assertEvent(event, 'schoolYear.externallyChanged');
      return (
        event.orgId !== context.orgId ||
        event.current?.id !== context.current?.id ||
        event.current?.name !== context.current?.name
      );
    },
    /** A school year of the list other than the one in use (choosing the current one changes nothing). */
    isNewChoice: ({ context, event }) => {
      assertEvent(event, 'schoolYear.selected');
      return context.orgId !== null && event.id !== context.current?.id && context.list.some((item) => item.id === event.id);
    },
  },
}).createMachine({
  id: 'schoolYear',
  context: ({ input }) => ({ orgId: input.orgId, list: [], current: input.current, pending: null, error: null }),
  initial: 'idle',
  // Opening the dropdown (from idle, ready or failed) fetches the list afresh, or shows an empty one
  // when there is no school. A change made elsewhere (before a choice is being saved) starts over in idle.
  states: {
    idle: {
      on: {
        'schoolYear.externallyChanged': { guard: 'isExternalChange', target: 'idle', actions: 'takeExternalChange' },
        'dropdown.opened': [
          { guard: 'hasOrg', target: 'loading' },
          { target: 'ready', actions: 'showEmptyList' },
        ],
      },
    },
    loading: {
      entry: assign({ error: null }),
      on: {
        'schoolYear.externallyChanged': { guard: 'isExternalChange', target: 'idle', actions: 'takeExternalChange' },
      },
      invoke: {
        src: 'fetchSchoolYears',
        input: ({ context }) => ({ orgId: context.orgId ?? notProvided('an orgId') }),
        onDone: { target: 'ready', actions: assign({ list: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error, LOAD_FAILED_MESSAGE) }) },
      },
    },
    ready: {
      on: {
        'schoolYear.externallyChanged': { guard: 'isExternalChange', target: 'idle', actions: 'takeExternalChange' },
        'dropdown.opened': [
          { guard: 'hasOrg', target: 'loading' },
          { target: 'ready', actions: 'showEmptyList' },
        ],
        'schoolYear.selected': { guard: 'isNewChoice', target: 'saving' },
      },
    },
    failed: {
      // A failed save keeps the list, so another choice can be tried without reopening.
      on: {
        'schoolYear.externallyChanged': { guard: 'isExternalChange', target: 'idle', actions: 'takeExternalChange' },
        'dropdown.opened': [
          { guard: 'hasOrg', target: 'loading' },
          { target: 'ready', actions: 'showEmptyList' },
        ],
        'schoolYear.selected': { guard: 'isNewChoice', target: 'saving' },
      },
    },
    saving: {
      entry: assign(({ context, event }) => {
        assertEvent(event, 'schoolYear.selected');
        return { pending: context.list.find((item) => item.id === event.id) ?? null, error: null };
      }),
      invoke: {
        src: 'saveDefault',
        input: ({ context }) => ({
          orgId: context.orgId ?? notProvided('an orgId'),
          classId: context.pending?.id ?? notProvided('a choice'),
        }),
        onDone: {
          target: 'saved',
          actions: [
            assign(({ context }) => ({ current: context.pending, pending: null })),
            { type: 'storeGradeInfo', params: ({ context }) => context.current ?? notProvided('a choice') },
            'reloadPage',
          ],
        },
        onError: {
          target: 'failed',
          actions: assign({ pending: null, error: ({ event }) => messageOf(event.error, SAVE_FAILED_MESSAGE) }),
        },
      },
    },
    // The page is reloading; nothing more happens here.
    saved: {},
  },
});

export type SchoolYearMachine = typeof schoolYearMachine;
