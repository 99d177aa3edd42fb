/**
 * The school-year machine against a model of the dropdown (spec §2, §4, §7). As for the session, the
 * model is a plain machine of what the teacher and the server can do, because createTestModel refuses
 * machines that invoke actors; each path drives the real machine, provided with fakes, and checks the
 * fake system after every step.
 */
import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import { assign, createActor, fromPromise, setup, type Actor } from 'xstate';
import { LOAD_FAILED_MESSAGE, SAVE_FAILED_MESSAGE, schoolYearMachine } from '../../src/machines/school-year.machine';
import type { ClassItem } from '../../src/shared/contract/system';

const ORG_ID = 4;
const YEARS: ClassItem[] = [
  { id: 11, name: '2024级' },
  { id: 12, name: '2023级' },
  { id: 13, name: '2022级' },
];
const CURRENT = YEARS[0]!;
const OTHER = YEARS[1]!;
/** The school year in use after 升年级 on this page renamed it (same id, new name). */
const PROMOTED: ClassItem = { id: CURRENT.id, name: '2024级 (初二)' };

const flush = async () => {
  for (let tick = 0; tick < 10; tick += 1) await Promise.resolve();
};

type Deferred<T> = { resolve: (value: T) => void; reject: (error: unknown) => void };

function createFakeSystem(orgId: number | null, current: ClassItem | null = CURRENT) {
  const system = {
    fetches: [] as { orgId: number }[],
    saves: [] as { orgId: number; classId: number }[],
    stored: [] as ClassItem[],
    reloads: 0,
    pending: {} as { fetch?: Deferred<ClassItem[]>; save?: Deferred<void> },
    actor: undefined as unknown as Actor<typeof schoolYearMachine>,
    get snapshot() {
      return system.actor.getSnapshot();
    },
  };
  const machine = schoolYearMachine.provide({
    actors: {
      fetchSchoolYears: fromPromise<ClassItem[], { orgId: number }>(({ input }) => {
        system.fetches.push(input);
        return new Promise((resolve, reject) => (system.pending.fetch = { resolve, reject }));
      }),
      saveDefault: fromPromise<void, { orgId: number; classId: number }>(({ input }) => {
        system.saves.push(input);
        return new Promise((resolve, reject) => (system.pending.save = { resolve, reject }));
      }),
    },
    actions: {
      storeGradeInfo: (_, params) => {
        system.stored.push(params);
      },
      reloadPage: () => {
        // The grade info must be stored before the page goes away.
        expect(system.stored).toHaveLength(system.reloads + 1);
        system.reloads += 1;
      },
    },
  });
  system.actor = createActor(machine, { input: { orgId, current } });
  system.actor.start();
  return system;
}
type FakeSystem = ReturnType<typeof createFakeSystem>;

// ---- the model ---------------------------------------------------------------------------------

const schoolYearModel = setup({
  types: {
    context: {} as { hasOrg: boolean; listLoaded: boolean; promoted: boolean },
    events: {} as
      | { type: 'boot.withSchool' }
      | { type: 'boot.withoutSchool' }
      | { type: 'teacher.opensDropdown' }
      | { type: 'server.sendsList' }
      | { type: 'server.failsList' }
      | { type: 'teacher.choosesAnotherYear' }
      | { type: 'teacher.choosesCurrentYear' }
      | { type: 'teacher.choosesUnknownYear' }
      | { type: 'server.savesDefault' }
      | { type: 'server.failsSave' }
      | { type: 'admin.promotesYear' },
  },
  guards: {
    hasOrg: ({ context }) => context.hasOrg,
    /** 升年级 of the school year in use, on this page (once: a second time changes no name here). */
    canPromote: ({ context }) => context.hasOrg && !context.promoted,
    listLoaded: ({ context }) => context.listLoaded,
  },
}).createMachine({
  id: 'schoolYearModel',
  context: { hasOrg: false, listLoaded: false, promoted: false },
  initial: 'boot',
  states: {
    boot: {
      on: {
        'boot.withSchool': { target: 'idle', actions: assign({ hasOrg: true }) },
        'boot.withoutSchool': 'idle',
      },
    },
    idle: {
      on: {
        'teacher.opensDropdown': [{ guard: 'hasOrg', target: 'loading' }, { target: 'ready' }],
        'admin.promotesYear': { guard: 'canPromote', target: 'idle', actions: assign({ promoted: true, listLoaded: false }) },
      },
    },
    loading: {
      on: {
        'teacher.opensDropdown': 'loading',
        'server.sendsList': { target: 'ready', actions: assign({ listLoaded: true }) },
        'server.failsList': 'failed',
        'admin.promotesYear': { guard: 'canPromote', target: 'idle', actions: assign({ promoted: true, listLoaded: false }) },
      },
    },
    ready: {
      on: {
        'teacher.opensDropdown': [{ guard: 'hasOrg', target: 'loading' }, { target: 'ready' }],
        'teacher.choosesAnotherYear': { guard: 'listLoaded', target: 'saving' },
        'teacher.choosesCurrentYear': 'ready',
        'teacher.choosesUnknownYear': 'ready',
        'admin.promotesYear': { guard: 'canPromote', target: 'idle', actions: assign({ promoted: true, listLoaded: false }) },
      },
    },
    failed: {
      on: {
        'teacher.opensDropdown': 'loading',
        'teacher.choosesAnotherYear': { guard: 'listLoaded', target: 'saving' },
        'admin.promotesYear': { guard: 'canPromote', target: 'idle', actions: assign({ promoted: true, listLoaded: false }) },
      },
    },
    saving: {
      on: {
        'teacher.opensDropdown': 'saving',
        'server.savesDefault': 'saved',
        'server.failsSave': 'failed',
        // The page reloads after the save; a rename meanwhile is not taken.
        'admin.promotesYear': 'saving',
      },
    },
    saved: {
      on: { 'teacher.opensDropdown': 'saved' },
    },
  },
});

function stepsFor(holder: { system?: FakeSystem }) {
  const sys = () => holder.system ?? expect.fail('the machine has not been started');
  /** Sends a choice and checks that nothing was saved, stored or reloaded because of it. */
  const ignoredChoice = (id: number) => () => {
    const before = { value: sys().snapshot.value, saves: sys().saves.length };
    sys().actor.send({ type: 'schoolYear.selected', id });
    expect(sys().snapshot.value).toEqual(before.value);
    expect(sys().saves).toHaveLength(before.saves);
  };
  return {
    'boot.withSchool': () => {
      holder.system = createFakeSystem(ORG_ID);
    },
    'boot.withoutSchool': () => {
      holder.system = createFakeSystem(null, null);
    },
    'teacher.opensDropdown': () => {
      const { fetches, snapshot } = sys();
      const busy = snapshot.matches('loading') || snapshot.matches('saving') || snapshot.matches('saved');
      const calls = fetches.length;
      sys().actor.send({ type: 'dropdown.opened' });
      // Each opening fetches afresh, unless a fetch or save is under way, or there is no school.
      const fetched = !busy && snapshot.context.orgId !== null;
      expect(sys().fetches).toHaveLength(calls + (fetched ? 1 : 0));
      if (fetched) expect(sys().fetches.at(-1)).toEqual({ orgId: ORG_ID });
    },
    'server.sendsList': async () => {
      sys().pending.fetch!.resolve(YEARS);
      await flush();
      expect(sys().snapshot.context.list).toEqual(YEARS);
    },
    'server.failsList': async () => {
      sys().pending.fetch!.reject(new Error('网络连接失败，请检查网络后重试'));
      await flush();
      expect(sys().snapshot.context.error).toBe('网络连接失败，请检查网络后重试');
    },
    'teacher.choosesAnotherYear': (step: { state: { value: unknown } }) => {
      const saves = sys().saves.length;
      sys().actor.send({ type: 'schoolYear.selected', id: OTHER.id });
      // Only a school year of a loaded list can be chosen; before that the choice is ignored.
      if (step.state.value === 'saving') expect(sys().saves.slice(saves)).toEqual([{ orgId: ORG_ID, classId: OTHER.id }]);
      else expect(sys().saves).toHaveLength(saves);
      expect(sys().stored).toEqual([]);
    },
    'teacher.choosesCurrentYear': ignoredChoice(CURRENT.id),
    'teacher.choosesUnknownYear': ignoredChoice(999),
    'server.savesDefault': async () => {
      sys().pending.save!.resolve();
      await flush();
      expect(sys().stored).toEqual([OTHER]);
      expect(sys().reloads).toBe(1);
    },
    'admin.promotesYear': () => {
      const { fetches, saves, snapshot } = sys();
      const before = snapshot.context;
      // Without a school there is nothing to promote: the page hands over what the picker already shows.
      const change = before.orgId === null ? { orgId: null, current: null } : { orgId: ORG_ID, current: PROMOTED };
      sys().actor.send({ type: 'schoolYear.externallyChanged', ...change });
      // Nothing is asked of the server; a new name makes the fetched list (with the old name) forgotten.
      expect(sys().fetches).toHaveLength(fetches.length);
      expect(sys().saves).toHaveLength(saves.length);
      const renamed = before.orgId !== null && before.current?.name !== PROMOTED.name && !snapshot.matches('saving');
      expect(sys().snapshot.context.list).toEqual(renamed ? [] : before.list);
    },
    'server.failsSave': async () => {
      sys().pending.save!.reject(new Error('很抱歉，您暂无该操作权限'));
      await flush();
      expect(sys().snapshot.context.error).toBe('很抱歉，您暂无该操作权限');
    },
  };
}

function checksFor(holder: { system?: FakeSystem }) {
  type ModelState = { context: { promoted: boolean } };
  const inState =
    (value: string, check: (system: FakeSystem, model: ModelState) => void = () => undefined) =>
    (model: ModelState) => {
      const system = holder.system!;
      expect(system.snapshot.status).toBe('active');
      expect(system.snapshot.value).toBe(value);
      if (value !== 'saved') {
        // Until a save succeeds nothing is stored, nothing reloads and the school year in use stays.
        expect(system.stored).toEqual([]);
        expect(system.reloads).toBe(0);
        const inUse = model.context.promoted ? PROMOTED : CURRENT;
        expect(system.snapshot.context.current).toEqual(system.snapshot.context.orgId === null ? null : inUse);
      }
      check(system, model);
    };
  return {
    boot: () => expect(holder.system).toBeUndefined(),
    // Idle at the start, or after 升年级 elsewhere on the page: the list is to be fetched again.
    idle: inState('idle', (system, model) => {
      if (!model.context.promoted) expect(system.fetches).toEqual([]);
      expect(system.snapshot.context.list).toEqual([]);
    }),
    loading: inState('loading', (system) => expect(system.snapshot.context.error).toBeNull()),
    ready: inState('ready', (system) => {
      expect(system.snapshot.context.error).toBeNull();
      if (system.snapshot.context.orgId === null) expect(system.snapshot.context.list).toEqual([]);
    }),
    failed: inState('failed', (system) => expect(system.snapshot.context.error).not.toBeNull()),
    saving: inState('saving', (system) => expect(system.snapshot.context.pending).toEqual(OTHER)),
    saved: inState('saved', (system) => {
      expect(system.snapshot.context.current).toEqual(OTHER);
      expect(system.stored).toEqual([OTHER]);
      expect(system.reloads).toBe(1);
    }),
  };
}

describe('school-year machine, model-based', () => {
  // A transition is told apart by where it came from and by which event, self-loops included (by
  // default @xstate/graph folds every self-loop of a state into one vertex), so shortest paths take
  // every transition of the model.
  const shortest = createTestModel(schoolYearModel, {
    serializeTransition: (_state, event, previous) => (event ? ` via ${event.type} from ${JSON.stringify(previous?.value)}` : ''),
  }).getShortestPaths();
  const simple = createTestModel(schoolYearModel, { serializeTransition: () => '' }).getSimplePaths();

  it('walks every state and every event of the model', () => {
    const steps = [...shortest, ...simple].flatMap((path) => path.steps);
    expect(new Set(steps.map((step) => step.state.value))).toEqual(
      new Set(['boot', 'idle', 'loading', 'ready', 'failed', 'saving', 'saved']),
    );
    const events = new Set(shortest.flatMap((path) => path.steps.map((step) => step.event.type)));
    expect(events.size).toBe(schoolYearModel.events.length + 1); // + xstate.init
  });

  describe.each([
    ['shortest', shortest],
    ['simple', simple],
  ])('%s paths', (_kind, paths) => {
    it.each(paths.map((path) => [path.description, path] as const))('%s', async (_description, path) => {
      const holder: { system?: FakeSystem } = {};
      await path.test({ events: stepsFor(holder), states: checksFor(holder) });
      holder.system?.actor.stop();
    });
  });
});

describe('school-year machine', () => {
  it('shows an empty list without asking the server when the user has no school', () => {
    const system = createFakeSystem(null, null);
    system.actor.send({ type: 'dropdown.opened' });
    expect(system.snapshot.value).toBe('ready');
    expect(system.snapshot.context.list).toEqual([]);
    expect(system.fetches).toEqual([]);
  });

  it('fetches the list again each time the dropdown opens', async () => {
    const system = createFakeSystem(ORG_ID);
    system.actor.send({ type: 'dropdown.opened' });
    system.pending.fetch!.resolve(YEARS.slice(0, 1));
    await flush();
    system.actor.send({ type: 'dropdown.opened' });
    system.pending.fetch!.resolve(YEARS);
    await flush();
    expect(system.fetches).toEqual([{ orgId: ORG_ID }, { orgId: ORG_ID }]);
    expect(system.snapshot.context.list).toEqual(YEARS);
  });

  it('saves, stores the grade info and then reloads, in that order', async () => {
    const order: string[] = [];
    const actor = createActor(
      schoolYearMachine.provide({
        actors: {
          fetchSchoolYears: fromPromise(async () => YEARS),
          saveDefault: fromPromise(async ({ input }) => {
            order.push(`save ${input.orgId}/${input.classId}`);
          }),
        },
        actions: {
          storeGradeInfo: (_, params) => order.push(`store ${params.id} ${params.name}`),
          reloadPage: () => order.push('reload'),
        },
      }),
      { input: { orgId: ORG_ID, current: null } },
    ).start();
    actor.send({ type: 'dropdown.opened' });
    await flush();
    actor.send({ type: 'schoolYear.selected', id: 13 });
    await flush();
    expect(order).toEqual([`save ${ORG_ID}/13`, 'store 13 2022级', 'reload']);
    expect(actor.getSnapshot().value).toBe('saved');
  });

  it('lets another school year be chosen after a failed save, without reopening', async () => {
    const system = createFakeSystem(ORG_ID);
    system.actor.send({ type: 'dropdown.opened' });
    system.pending.fetch!.resolve(YEARS);
    await flush();
    system.actor.send({ type: 'schoolYear.selected', id: 12 });
    system.pending.save!.reject(new Error('x'));
    await flush();
    system.actor.send({ type: 'schoolYear.selected', id: 13 });
    expect(system.saves).toEqual([
      { orgId: ORG_ID, classId: 12 },
      { orgId: ORG_ID, classId: 13 },
    ]);
    expect(system.snapshot.context.pending).toEqual(YEARS[2]);
  });

  it('falls back to Chinese messages for failures without one', async () => {
    const system = createFakeSystem(ORG_ID);
    system.actor.send({ type: 'dropdown.opened' });
    system.pending.fetch!.reject('boom');
    await flush();
    expect(system.snapshot.context.error).toBe(LOAD_FAILED_MESSAGE);
    system.actor.send({ type: 'dropdown.opened' });
    system.pending.fetch!.resolve(YEARS);
    await flush();
    system.actor.send({ type: 'schoolYear.selected', id: 12 });
    system.pending.save!.reject(undefined);
    await flush();
    expect(system.snapshot.context.error).toBe(SAVE_FAILED_MESSAGE);
  });
});

describe('school-year machine, changes made elsewhere on the page', () => {
  it('takes a renamed school year and forgets the list fetched with the old name', async () => {
    const system = createFakeSystem(ORG_ID);
    system.actor.send({ type: 'dropdown.opened' });
    system.pending.fetch!.resolve(YEARS);
    await flush();
    system.actor.send({ type: 'schoolYear.externallyChanged', orgId: ORG_ID, current: PROMOTED });
    expect(system.snapshot.value).toBe('idle');
    expect(system.snapshot.context.current).toEqual(PROMOTED);
    expect(system.snapshot.context.list).toEqual([]);
    system.actor.send({ type: 'dropdown.opened' });
    expect(system.fetches).toHaveLength(2);
  });

  it('ignores the school year it already shows', async () => {
    const system = createFakeSystem(ORG_ID);
    system.actor.send({ type: 'dropdown.opened' });
    system.pending.fetch!.resolve(YEARS);
    await flush();
    system.actor.send({ type: 'schoolYear.externallyChanged', orgId: ORG_ID, current: CURRENT });
    expect(system.snapshot.value).toBe('ready');
    expect(system.snapshot.context.list).toEqual(YEARS);
  });

  it('takes a school made or joined on the page, and then asks for its school years', () => {
    const system = createFakeSystem(null, null);
    system.actor.send({ type: 'schoolYear.externallyChanged', orgId: ORG_ID, current: CURRENT });
    system.actor.send({ type: 'dropdown.opened' });
    expect(system.fetches).toEqual([{ orgId: ORG_ID }]);
    expect(system.snapshot.context.current).toEqual(CURRENT);
  });
});
