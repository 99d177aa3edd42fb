/**
 * The scanner machine against a model of spec §4 "Scanner flow" and §8.
 *
 * @xstate/graph's createTestModel refuses machines that invoke actors, and the scanner machine invokes
 * six. So the model below is a plain machine of what the station, the scanner and the user can do
 * (load the component, request a scan, select/configure succeed or fail, the feeder transfers pages,
 * jams, double-feeds or goes offline, a conversion succeeds or fails, the source closes), and every path
 * through it drives the real machine with fake actors. After each step the fake system is checked:
 * the exact configuration handed to the source, the pages emitted (in order, each once), the transform
 * inputs, the Chinese message shown, and that the source was closed whenever it had been selected,
 * failures included.
 */
import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import { assign, createActor, fromCallback, fromPromise, setup, type Actor, type EventFrom, type SnapshotFrom } from 'xstate';
import {
  DriverError,
  scannerMachine,
  scannerOptions,
  type AcquireEvent,
  type TransformInput,
} from '../../src/machines/scanner.machine';
import {
  CHOOSE_SCANNER_MESSAGE,
  NO_SCANNER_MESSAGE,
  SCAN_FAILED_MESSAGE,
  SERVICE_NOT_INSTALLED_MESSAGE,
  type RawImage,
  type ScannedPage,
  type ScannerSettings,
  type ScanSourceConfig,
} from '../../src/shared/contract/scan';

const SOURCES = ['Canon DR-C225', 'Fujitsu fi-7160'];
const SETTINGS: ScannerSettings = {
  scannerIndex: 1,
  scannerName: 'Fujitsu fi-7160',
  paperSize: 11,
  scanSubject: true,
  duplex: false,
};
/** Spec §4 step 3, written out (not computed by the code under test). */
const EXPECTED_CONFIG: ScanSourceConfig = {
  showUI: false,
  feeder: true,
  autoScan: true,
  duplex: false,
  autoDeskew: true,
  pixelType: 'rgb',
  resolution: 300,
  paperSize: 11,
};

const flush = async () => {
  for (let tick = 0; tick < 10; tick += 1) await Promise.resolve();
};

type Deferred<T> = { resolve: (value: T) => void; reject: (error: unknown) => void };
function deferred<T>(): { promise: Promise<T> } & Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function rawPage(n: number): RawImage {
  return { kind: 'pixels', width: 8, height: 1, bitDepth: 1, data: new Uint8Array([n]) };
}

function pageFor(input: TransformInput): ScannedPage {
  const imageId = `00000000-0000-4000-8000-${String(input.sequence).padStart(12, '0')}`;
  return {
    imageId,
    fileName: `${imageId}.jpg`,
    blob: new Blob(['jpeg'], { type: 'image/jpeg' }),
    scanSubject: input.scanSubject,
    width: 2480,
    height: 3507,
    sequence: input.sequence,
  };
}

/** The real machine with fake IO, and a record of everything it asked of the outside world. */
function createFakeSystem(settings: ScannerSettings = SETTINGS) {
  const system = {
    loads: 0,
    selects: [] as number[],
    selectsFailed: 0,
    configs: [] as ScanSourceConfig[],
    acquisitions: [] as { config: ScanSourceConfig; sendBack: (event: AcquireEvent) => void; stopped: boolean }[],
    transforms: [] as { input: TransformInput; pending: Deferred<ScannedPage> }[],
    closes: 0,
    emitted: [] as ScannedPage[],
    pending: {} as {
      load?: Deferred<{ sources: string[] }>;
      select?: Deferred<void>;
      configure?: Deferred<void>;
      close?: Deferred<void>;
    },
    /** Pages sent by the fake feeder in the current scan, in order. */
    sent: [] as RawImage[],
    actor: undefined as unknown as Actor<typeof scannerMachine>,
    get snapshot() {
      return system.actor.getSnapshot();
    },
    get acquisition() {
      return system.acquisitions.at(-1);
    },
    feed(event: AcquireEvent) {
      const acquisition = system.acquisition;
      expect(acquisition?.stopped).toBe(false);
      acquisition!.sendBack(event);
    },
  };
  const machine = scannerMachine.provide({
    actors: {
      loadDriver: fromPromise(() => {
        system.loads += 1;
        const d = deferred<{ sources: string[] }>();
        system.pending.load = d;
        return d.promise;
      }),
      selectSource: fromPromise<void, { index: number }>(({ input }) => {
        system.selects.push(input.index);
        const d = deferred<void>();
        system.pending.select = d;
        return d.promise;
      }),
      configureSource: fromPromise<void, ScanSourceConfig>(({ input }) => {
        system.configs.push(input);
        const d = deferred<void>();
        system.pending.configure = d;
        return d.promise;
      }),
      acquire: fromCallback<{ type: string }, ScanSourceConfig, AcquireEvent>(({ input, sendBack }) => {
        const record = { config: input, sendBack, stopped: false };
        system.acquisitions.push(record);
        return () => {
          record.stopped = true;
        };
      }),
      transformImage: fromPromise<ScannedPage, TransformInput>(({ input }) => {
        const d = deferred<ScannedPage>();
        system.transforms.push({ input, pending: d });
        return d.promise;
      }),
      closeSource: fromPromise(() => {
        system.closes += 1;
        const d = deferred<void>();
        system.pending.close = d;
        return d.promise;
      }),
    },
    actions: {
      emitPage: (_, page) => {
        system.emitted.push(page);
      },
    },
  });
  system.actor = createActor(machine, { input: { settings } });
  system.actor.start();
  return system;
}
type FakeSystem = ReturnType<typeof createFakeSystem>;

// ---- the model ---------------------------------------------------------------------------------

type Feed = 'running' | 'finished' | 'jam' | 'doubleFeed' | 'offline' | 'cancelled' | 'configureFailed';
type ModelContext = { sources: boolean; chosen: boolean; queued: number; transferred: number; feed: Feed; maxPages: number };

const idle = {
  'user.requestsScan': [
    { guard: 'noSources', target: 'noSource' },
    { guard: 'notChosen', target: 'sourceNotSelectable' },
    { target: 'selecting', actions: 'newJob' },
  ],
  'user.clearsChoice': { guard: 'chosen', actions: assign({ chosen: false }) },
  'user.choosesScanner': { guard: 'notChosen', actions: assign({ chosen: true }) },
  'user.reloads': 'loading',
};
const failed = { ...idle, 'user.dismisses': 'ready' };

const scannerModel = setup({
  types: {
    context: {} as ModelContext,
    input: {} as { maxPages: number },
    events: {} as
      | { type: 'load.succeeds' }
      | { type: 'load.succeedsEmpty' }
      | { type: 'load.fails' }
      | { type: 'user.reloads' }
      | { type: 'user.requestsScan' }
      | { type: 'user.clearsChoice' }
      | { type: 'user.choosesScanner' }
      | { type: 'user.dismisses' }
      | { type: 'user.cancels' }
      | { type: 'select.succeeds' }
      | { type: 'select.fails' }
      | { type: 'configure.succeeds' }
      | { type: 'configure.fails' }
      | { type: 'scanner.transfers' }
      | { type: 'scanner.finishes' }
      | { type: 'scanner.jams' }
      | { type: 'scanner.doubleFeeds' }
      | { type: 'scanner.goesOffline' }
      | { type: 'transform.succeeds' }
      | { type: 'transform.fails' }
      | { type: 'close.succeeds' }
      | { type: 'close.fails' },
  },
  actions: {
    newJob: assign({ queued: 0, transferred: 0, feed: 'running' as Feed }),
    transfer: assign(({ context }) => ({ queued: context.queued + 1, transferred: context.transferred + 1 })),
    dequeue: assign(({ context }) => ({ queued: context.queued - 1 })),
    end: assign((_, feed: Feed) => ({ feed })),
    /** A scan's bookkeeping ends with it, so idle states differ only by sources and choice. */
    endJob: assign({ queued: 0, transferred: 0, feed: 'finished' as Feed }),
  },
  guards: {
    noSources: ({ context }) => !context.sources,
    notChosen: ({ context }) => !context.chosen,
    chosen: ({ context }) => context.chosen,
    canTransfer: ({ context }) => context.feed === 'running' && context.transferred < context.maxPages,
    feedRunning: ({ context }) => context.feed === 'running',
    moreQueued: ({ context }) => context.queued > 1,
    feedEnded: ({ context }) => context.feed !== 'running',
    endedWith: ({ context }, feed: Feed) => context.feed === feed,
  },
}).createMachine({
  id: 'scannerModel',
  context: ({ input }) => ({
    sources: false,
    chosen: true,
    queued: 0,
    transferred: 0,
    feed: 'finished',
    maxPages: input.maxPages,
  }),
  initial: 'loading',
  states: {
    loading: {
      on: {
        'load.succeeds': { target: 'ready', actions: assign({ sources: true }) },
        'load.succeedsEmpty': { target: 'ready', actions: assign({ sources: false }) },
        'load.fails': { target: 'serviceNotInstalled', actions: assign({ sources: false }) },
      },
    },
    serviceNotInstalled: { on: { 'user.reloads': 'loading' } },
    // Shared transition maps are plain data here; XState's config types cannot follow them across states.
    ready: { on: idle as never },
    noSource: { on: failed as never },
    sourceNotSelectable: { on: failed as never },
    feederJam: { on: failed as never },
    doubleFeed: { on: failed as never },
    acquisitionError: { on: failed as never },
    selecting: {
      on: {
        'select.succeeds': 'applying',
        'select.fails': { target: 'sourceNotSelectable', actions: 'endJob' },
        'user.cancels': { target: 'closing', actions: { type: 'end', params: 'cancelled' as Feed } },
      },
    },
    applying: {
      on: {
        'configure.succeeds': 'acquiring',
        'configure.fails': { target: 'closing', actions: { type: 'end', params: 'configureFailed' as Feed } },
        'user.cancels': { target: 'closing', actions: { type: 'end', params: 'cancelled' as Feed } },
      },
    },
    acquiring: {
      on: {
        'scanner.transfers': { guard: 'canTransfer', target: 'transforming', actions: 'transfer' },
        'scanner.finishes': { target: 'closing', actions: { type: 'end', params: 'finished' as Feed } },
        'scanner.jams': { target: 'closing', actions: { type: 'end', params: 'jam' as Feed } },
        'scanner.doubleFeeds': { target: 'closing', actions: { type: 'end', params: 'doubleFeed' as Feed } },
        'scanner.goesOffline': { target: 'closing', actions: { type: 'end', params: 'offline' as Feed } },
        'user.cancels': { target: 'closing', actions: { type: 'end', params: 'cancelled' as Feed } },
      },
    },
    transforming: {
      on: {
        'scanner.transfers': { guard: 'canTransfer', actions: 'transfer' },
        'scanner.finishes': { guard: 'feedRunning', actions: { type: 'end', params: 'finished' as Feed } },
        'scanner.jams': { guard: 'feedRunning', actions: { type: 'end', params: 'jam' as Feed } },
        'scanner.doubleFeeds': { guard: 'feedRunning', actions: { type: 'end', params: 'doubleFeed' as Feed } },
        'scanner.goesOffline': { guard: 'feedRunning', actions: { type: 'end', params: 'offline' as Feed } },
        'transform.succeeds': [
          { guard: 'moreQueued', target: 'transforming', actions: 'dequeue' },
          { guard: 'feedEnded', target: 'closing', actions: 'dequeue' },
          { target: 'acquiring', actions: 'dequeue' },
        ],
        'transform.fails': [
          { guard: 'moreQueued', target: 'transforming', actions: 'dequeue' },
          { guard: 'feedEnded', target: 'closing', actions: 'dequeue' },
          { target: 'acquiring', actions: 'dequeue' },
        ],
        'user.cancels': { target: 'closing', actions: { type: 'end', params: 'cancelled' as Feed } },
      },
    },
    closing: {
      on: {
        'close.succeeds': [
          { guard: { type: 'endedWith', params: 'finished' }, target: 'ready', actions: 'endJob' },
          { guard: { type: 'endedWith', params: 'jam' }, target: 'feederJam', actions: 'endJob' },
          { guard: { type: 'endedWith', params: 'doubleFeed' }, target: 'doubleFeed', actions: 'endJob' },
          { target: 'acquisitionError', actions: 'endJob' },
        ],
        'close.fails': [
          { guard: { type: 'endedWith', params: 'finished' }, target: 'ready', actions: 'endJob' },
          { guard: { type: 'endedWith', params: 'jam' }, target: 'feederJam', actions: 'endJob' },
          { guard: { type: 'endedWith', params: 'doubleFeed' }, target: 'doubleFeed', actions: 'endJob' },
          { target: 'acquisitionError', actions: 'endJob' },
        ],
      },
    },
  },
});

// ---- driving the real machine ------------------------------------------------------------------

const FEED_MESSAGES: Record<Exclude<Feed, 'running' | 'finished'>, string> = {
  jam: '卡纸了，请取出卡住的纸张后重新扫描',
  doubleFeed: '检测到重张进纸，请整理纸张后重新扫描',
  offline: '扫描仪未连接或已关机',
  cancelled: '扫描已取消',
  configureFailed: SCAN_FAILED_MESSAGE,
};

/** Tracks what the current scan should have done, beside the fake system. */
type Expect = { settings: ScannerSettings; feed: Feed; transformStarted: number; emittedBefore: number };

function stepsFor(holder: { system: FakeSystem; expect: Expect }) {
  const sys = () => holder.system;
  const ex = () => holder.expect;
  /** The transform of the oldest page not yet transformed must be running with that page and the job's settings. */
  const expectTransformOf = (index: number) => {
    const transform = sys().transforms[index];
    expect(transform).toBeDefined();
    expect(transform!.input).toEqual({
      image: sys().sent[index],
      sequence: index + 1,
      paperSize: ex().settings.paperSize,
      scanSubject: ex().settings.scanSubject,
    });
  };
  const settleTransform = async (succeed: boolean) => {
    const index = ex().transformStarted;
    expectTransformOf(index);
    const emitted = sys().emitted.length;
    const transform = sys().transforms[index]!;
    if (succeed) transform.pending.resolve(pageFor(transform.input));
    else transform.pending.reject(new Error('convertToBlob failed'));
    await flush();
    ex().transformStarted += 1;
    if (succeed) {
      expect(sys().emitted).toHaveLength(emitted + 1);
      expect(sys().emitted.at(-1)).toEqual(pageFor(transform.input));
      // The loading flag is cleared by the first page emitted.
      expect(sys().snapshot.context.loading).toBe(false);
    } else {
      expect(sys().emitted).toHaveLength(emitted);
    }
    // The next queued page, if any, is on its way through the pipeline.
    if (sys().sent.length > ex().transformStarted && sys().snapshot.matches({ scanning: 'transforming' })) {
      expectTransformOf(ex().transformStarted);
    }
  };
  const endFeed = async (feed: Exclude<Feed, 'running' | 'cancelled' | 'configureFailed'>) => {
    const closes = sys().closes;
    const wasAcquiring = sys().snapshot.matches({ scanning: 'acquiring' });
    const codes = { finished: null, jam: -1020, doubleFeed: -1021, offline: -1023 } as const;
    sys().feed(feed === 'finished' ? { type: 'scan.finished' } : { type: 'scan.failed', code: codes[feed] });
    await flush();
    ex().feed = feed;
    // Closed at once when nothing is left to transform; otherwise after the last page.
    expect(sys().closes).toBe(wasAcquiring ? closes + 1 : closes);
  };
  const close = async (succeed: boolean) => {
    if (succeed) sys().pending.close!.resolve();
    else sys().pending.close!.reject(new DriverError('acquisition', 'CloseSource failed', -1031));
    await flush();
    const feed = ex().feed;
    expect(sys().snapshot.context.lastError).toBe(feed === 'finished' || feed === 'running' ? null : FEED_MESSAGES[feed]);
  };
  const cancel = async () => {
    const closes = sys().closes;
    sys().actor.send({ type: 'scan.cancelled' });
    await flush();
    ex().feed = 'cancelled';
    expect(sys().closes).toBe(closes + 1);
  };
  return {
    'load.succeeds': async () => {
      sys().pending.load!.resolve({ sources: SOURCES });
      await flush();
      expect(sys().snapshot.context.sources).toEqual(SOURCES);
      expect(scannerOptions(sys().snapshot.context.sources)).toEqual([
        { id: 0, text: 'Canon DR-C225' },
        { id: 1, text: 'Fujitsu fi-7160' },
      ]);
    },
    'load.succeedsEmpty': async () => {
      sys().pending.load!.resolve({ sources: [] });
      await flush();
      expect(sys().snapshot.context.sources).toEqual([]);
    },
    'load.fails': async () => {
      sys().pending.load!.reject(new DriverError('serviceNotInstalled', 'Dynamic Web TWAIN service not found'));
      await flush();
      expect(sys().snapshot.context.lastError).toBe(SERVICE_NOT_INSTALLED_MESSAGE);
    },
    'user.reloads': async () => {
      const loads = sys().loads;
      sys().actor.send({ type: 'scanner.reload' });
      await flush();
      expect(sys().loads).toBe(loads + 1);
    },
    'user.requestsScan': async () => {
      const selects = sys().selects.length;
      const { sources, settings } = sys().snapshot.context;
      sys().actor.send({ type: 'scan.requested' });
      await flush();
      if (sources.length === 0) {
        expect(sys().selects).toHaveLength(selects);
        expect(sys().snapshot.context.lastError).toBe(NO_SCANNER_MESSAGE);
      } else if (settings.scannerIndex === null) {
        expect(sys().selects).toHaveLength(selects);
        expect(sys().snapshot.context.lastError).toBe(CHOOSE_SCANNER_MESSAGE);
      } else {
        // Selects the chosen source, and the page count starts again.
        expect(sys().selects).toEqual([...sys().selects.slice(0, selects), 1]);
        expect(sys().snapshot.context.loading).toBe(true);
        expect(sys().snapshot.context.lastError).toBeNull();
        expect(sys().snapshot.context.counts).toEqual({ transferred: 0, emitted: 0, failedConversions: 0 });
        holder.expect = { settings, feed: 'running', transformStarted: 0, emittedBefore: sys().emitted.length };
        sys().sent = [];
      }
    },
    'user.clearsChoice': async () => {
      sys().actor.send({ type: 'settings.changed', settings: { ...SETTINGS, scannerIndex: null, scannerName: null } });
      await flush();
      expect(sys().snapshot.context.settings.scannerIndex).toBeNull();
    },
    'user.choosesScanner': async () => {
      sys().actor.send({ type: 'settings.changed', settings: SETTINGS });
      await flush();
      expect(sys().snapshot.context.settings).toEqual(SETTINGS);
    },
    'user.dismisses': async () => {
      sys().actor.send({ type: 'scanner.dismissed' });
      await flush();
    },
    'user.cancels': cancel,
    'select.succeeds': async () => {
      const configs = sys().configs.length;
      sys().pending.select!.resolve();
      await flush();
      expect(sys().configs).toHaveLength(configs + 1);
      expect(sys().configs.at(-1)).toEqual(EXPECTED_CONFIG);
    },
    'select.fails': async () => {
      const closes = sys().closes;
      sys().selectsFailed += 1;
      sys().pending.select!.reject(new DriverError('sourceNotSelectable', 'SelectSourceByIndex failed'));
      await flush();
      // Nothing was opened, so nothing is closed; the user is asked to re-select the scanner.
      expect(sys().closes).toBe(closes);
      expect(sys().snapshot.context.lastError).toBe(SCAN_FAILED_MESSAGE);
    },
    'configure.succeeds': async () => {
      const acquisitions = sys().acquisitions.length;
      sys().pending.configure!.resolve();
      await flush();
      expect(sys().acquisitions).toHaveLength(acquisitions + 1);
      expect(sys().acquisition!.config).toEqual(EXPECTED_CONFIG);
    },
    'configure.fails': async () => {
      const closes = sys().closes;
      sys().pending.configure!.reject(new DriverError('acquisition', 'capability not supported'));
      await flush();
      ex().feed = 'configureFailed';
      expect(sys().closes).toBe(closes + 1);
      expect(sys().acquisitions.filter((a) => !a.stopped)).toEqual([]);
    },
    'scanner.transfers': async () => {
      const transforms = sys().transforms.length;
      const idle = sys().snapshot.matches({ scanning: 'acquiring' });
      const image = rawPage(sys().sent.length + 1);
      sys().sent.push(image);
      sys().feed({ type: 'scan.transferred', image });
      await flush();
      expect(sys().snapshot.context.counts.transferred).toBe(sys().sent.length);
      // An idle pipeline takes the page at once; a busy one queues it.
      expect(sys().transforms).toHaveLength(idle ? transforms + 1 : transforms);
      if (idle) expectTransformOf(sys().sent.length - 1);
    },
    'scanner.finishes': () => endFeed('finished'),
    'scanner.jams': () => endFeed('jam'),
    'scanner.doubleFeeds': () => endFeed('doubleFeed'),
    'scanner.goesOffline': () => endFeed('offline'),
    'transform.succeeds': () => settleTransform(true),
    'transform.fails': () => settleTransform(false),
    'close.succeeds': () => close(true),
    'close.fails': () => close(false),
  };
}

type RealValue = ReturnType<FakeSystem['actor']['getSnapshot']>['value'];

function checksFor(holder: { system: FakeSystem; expect: Expect }) {
  /** Idle: the source selected in every scan has been closed, no acquisition runs, nothing is queued. */
  const idle = (value: RealValue, failed: boolean) => () => {
    const { snapshot, closes, selects, selectsFailed, acquisitions } = holder.system;
    expect(snapshot.status).toBe('active');
    expect(snapshot.value).toEqual(value);
    expect(snapshot.hasTag('failed')).toBe(failed);
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(closes).toBe(selects.length - selectsFailed);
    expect(acquisitions.every((a) => a.stopped)).toBe(true);
    expect(snapshot.context.loading).toBe(false);
    expect(snapshot.context.queue).toEqual([]);
    if (!failed) expect(snapshot.context.lastError).toBeNull();
    else expect(snapshot.context.lastError).toMatch(/[\u4e00-\u9fa5]/);
  };
  const busy = (value: RealValue) => () => {
    const { snapshot, emitted } = holder.system;
    expect(snapshot.status).toBe('active');
    expect(snapshot.value).toEqual(value);
    expect(snapshot.hasTag('busy')).toBe(true);
    // Every page of this scan emitted so far, in transfer order, each once.
    const pages = emitted.slice(holder.expect.emittedBefore);
    expect(pages.map((p) => p.sequence)).toEqual([...pages.map((p) => p.sequence)].sort((a, b) => a - b));
    expect(new Set(pages.map((p) => p.imageId)).size).toBe(pages.length);
    if (value === 'loading') expect(snapshot.context.loading).toBe(false);
    else if (value !== 'closing') expect(snapshot.context.loading).toBe(pages.length === 0);
  };
  return {
    loading: busy('loading'),
    serviceNotInstalled: idle('serviceNotInstalled', true),
    ready: idle('ready', false),
    noSource: idle('noSource', true),
    sourceNotSelectable: idle('sourceNotSelectable', true),
    feederJam: idle('feederJam', true),
    doubleFeed: idle('doubleFeed', true),
    acquisitionError: idle('acquisitionError', true),
    selecting: busy({ configuring: 'selecting' }),
    applying: busy({ configuring: 'applying' }),
    acquiring: busy({ scanning: 'acquiring' }),
    transforming: busy({ scanning: 'transforming' }),
    closing: busy('closing'),
  };
}

function newHolder() {
  return {
    system: createFakeSystem(),
    expect: { settings: SETTINGS, feed: 'finished', transformStarted: 0, emittedBefore: 0 } as Expect,
  };
}

describe('scanner machine, model-based', () => {
  // Shortest paths reach every (state, context) of the model by every distinct transition. Simple paths
  // (every route through distinct states) leave out the choice toggles and reloads, to keep their number sane.
  // Only the events the model accepts in a state: by default @xstate/graph also tries the ignored ones,
  // which would have the fake scanner do things the real one cannot (transfer after it finished).
  const enabled = (exclude: readonly string[]) => (state: SnapshotFrom<typeof scannerModel>) =>
    scannerModel.events
      .filter((type) => !exclude.includes(type))
      .map((type) => ({ type }) as EventFrom<typeof scannerModel>)
      .filter((event) => state.can(event));
  const shortest = createTestModel(scannerModel).getShortestPaths({
    input: { maxPages: 2 },
    events: enabled([]),
    serializeState: (state, event, previous) =>
      JSON.stringify([state.value, state.context]) + (event ? ` via ${event.type} from ${JSON.stringify(previous?.value)}` : ''),
  });
  const simple = createTestModel(scannerModel).getSimplePaths({
    input: { maxPages: 2 },
    events: enabled(['user.clearsChoice', 'user.choosesScanner', 'user.reloads', 'load.succeedsEmpty', 'close.fails']),
    serializeState: (state) => JSON.stringify([state.value, state.context]),
    // A scan that ended in a failure is where a path stops; the shortest paths go on from there.
    stopWhen: (state) => ['noSource', 'sourceNotSelectable', 'feederJam', 'doubleFeed', 'acquisitionError'].includes(state.value),
  });

  it('walks every state and every event of the model', () => {
    const steps = [...shortest, ...simple].flatMap((path) => path.steps);
    const states = new Set(steps.map((step) => step.state.value as string));
    expect([...states].sort()).toEqual(Object.keys(scannerModel.config.states!).sort());
    const events = new Set(shortest.flatMap((path) => path.steps.map((step) => step.event.type)));
    expect(events.size).toBe(scannerModel.events.length + 1); // + xstate.init
  });

  describe.each([
    ['shortest', shortest],
    ['simple', simple],
  ])('%s paths', (_kind, paths) => {
    it.each(paths.map((path) => [path.description, path] as const))('%s', async (_description, path) => {
      const holder = newHolder();
      try {
        await path.test({ events: stepsFor(holder), states: checksFor(holder) });
      } finally {
        holder.system.actor.stop();
      }
    });
  });
});
