/**
 * The scanner (spec §4 "Scanner flow"): load the scanning component and list its sources; on a scan
 * request check that a source exists and the chosen one can be selected, configure it (no UI, feeder,
 * auto-scan, duplex per the settings, auto deskew, RGB, 300 dpi, the chosen paper size), acquire, turn
 * every transferred image into a JPEG page (greyscale for 1-bit, resized by paper size) and emit it,
 * and close the source after acquisition, also after a failure.
 * Owns the order of those steps, the counts and the Chinese error shown. Does not own IO: the driver
 * calls are the actors `loadDriver`, `selectSource`, `configureSource`, `acquire`, `closeSource`, the
 * image work is `transformImage`, and what happens to a page is the action `emitPage`, all supplied by
 * the caller with `scannerMachine.provide(...)`.
 *
 * Pages keep arriving while earlier ones are transformed: `acquire` lives on the `scanning` state and
 * its transfers wait in `context.queue`. A page whose conversion fails is skipped and counted (spec §8:
 * "Base64 conversion failure: handler does nothing"). Pages transferred before a jam are still emitted.
 */
import { assertEvent, assign, fromCallback, fromPromise, setup, type ActorLogicFrom, type EventObject } from 'xstate';
import {
  CHOOSE_SCANNER_MESSAGE,
  DEFAULT_SCANNER_SETTINGS,
  DriverError,
  DWT_ERROR_CODES,
  NO_SCANNER_MESSAGE,
  SCAN_FAILED_MESSAGE,
  SERVICE_NOT_INSTALLED_MESSAGE,
  scanErrorMessage,
  scanSourceConfig,
  type AcquireEvent,
  type DriverErrorKind,
  type RawImage,
  type ScannedPage,
  type ScannerOption,
  type ScannerSettings,
  type ScanSourceConfig,
  type TransformInput,
} from '../shared/contract/scan';

export { DriverError };
export type { AcquireEvent, DriverErrorKind, RawImage, ScannedPage, ScannerSettings, ScanSourceConfig, TransformInput };

export type ScannerEvent =
  | AcquireEvent
  | { type: 'scan.requested' }
  | { type: 'scan.cancelled' }
  | { type: 'settings.changed'; settings: ScannerSettings }
  | { type: 'scanner.reload' }
  | { type: 'scanner.dismissed' };

export type ScannerInput = { settings?: ScannerSettings };

export type ScanCounts = { transferred: number; emitted: number; failedConversions: number };

/** How the acquisition ended: still running, finished, or failed with a scanner code (null = unknown). */
export type FeedState =
  { status: 'running' } | { status: 'finished' } | { status: 'failed'; code: number | null; message: string };

export type ScannerContext = {
  /** Source names as the scanning component lists them; the index is the source's id. */
  sources: string[];
  settings: ScannerSettings;
  /** True from a scan request until a page is emitted or the scan ends (spec §4 step 5). */
  loading: boolean;
  counts: ScanCounts;
  /** Transferred images waiting for the pipeline, with their sequence numbers. */
  queue: { image: RawImage; sequence: number }[];
  feed: FeedState;
  /** The settings the running scan started with (a change during a scan applies to the next one). */
  job: Pick<ScannerSettings, 'paperSize' | 'scanSubject'> | null;
  lastPage: ScannedPage | null;
  /** The last failure, in Chinese, for the UI; cleared by the next scan request. */
  lastError: string | null;
};

function notProvided(name: string): never {
  throw new Error(`${name} not provided`);
}

function errorCode(error: unknown): number | null {
  if (error instanceof DriverError) return error.code;
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'number' ? code : null;
}

/** The dropdown entries of a source list (spec §3: id = index, text = source name). */
export function scannerOptions(sources: readonly string[]): ScannerOption[] {
  return sources.map((text, id) => ({ id, text }));
}

/** Whether the stored choice still names a listed source (index in range and, when stored, same name). */
export function isChosenSourceListed(settings: ScannerSettings, sources: readonly string[]): boolean {
  const { scannerIndex, scannerName } = settings;
  if (scannerIndex === null || scannerIndex >= sources.length) return false;
  return scannerName === undefined || scannerName === null || sources[scannerIndex] === scannerName;
}

const idleHandlers = {
  'scan.requested': [
    { guard: 'noSources', target: '#scanner.noSource', actions: 'failNoSource' },
    { guard: 'chosenSourceMissing', target: '#scanner.sourceNotSelectable', actions: 'failChooseSource' },
    { target: '#scanner.configuring', actions: 'startJob' },
  ],
  'settings.changed': { actions: 'storeSettings' },
  'scanner.reload': { target: '#scanner.loading' },
} as const;

export const scannerMachine = setup({
  types: {
    context: {} as ScannerContext,
    events: {} as ScannerEvent,
    input: {} as ScannerInput,
    tags: {} as 'busy' | 'failed',
  },
  actors: {
    loadDriver: fromPromise<{ sources: string[] }>(async () => notProvided('loadDriver')),
    selectSource: fromPromise<void, { index: number }>(async () => notProvided('selectSource')),
    configureSource: fromPromise<void, ScanSourceConfig>(async () => notProvided('configureSource')),
    acquire: fromCallback<EventObject, ScanSourceConfig, AcquireEvent>(() => notProvided('acquire')),
    transformImage: fromPromise<ScannedPage, TransformInput>(async () => notProvided('transformImage')),
    closeSource: fromPromise<void>(async () => notProvided('closeSource')),
  },
  actions: {
    emitPage: (_, _page: ScannedPage) => notProvided('emitPage'),
    storeSettings: assign(({ event }) => {
      assertEvent(event, 'settings.changed');
      return { settings: event.settings };
    }),
    startJob: assign(({ context }) => ({
      loading: true,
      lastError: null,
      lastPage: null,
      counts: { transferred: 0, emitted: 0, failedConversions: 0 },
      queue: [],
      feed: { status: 'running' } as FeedState,
      job: { paperSize: context.settings.paperSize, scanSubject: context.settings.scanSubject },
    })),
    clearError: assign({ lastError: null }),
    failNoSource: assign({ loading: false, lastError: NO_SCANNER_MESSAGE }),
    failChooseSource: assign(({ context }) => ({
      loading: false,
      lastError: context.settings.scannerIndex === null ? CHOOSE_SCANNER_MESSAGE : SCAN_FAILED_MESSAGE,
    })),
    dropFailed: assign(({ context }) => ({
      queue: context.queue.slice(1),
      counts: { ...context.counts, failedConversions: context.counts.failedConversions + 1 },
    })),
    enqueue: assign(({ context, event }) => {
      assertEvent(event, 'scan.transferred');
      const sequence = context.counts.transferred + 1;
      return {
        queue: [...context.queue, { image: event.image, sequence }],
        counts: { ...context.counts, transferred: sequence },
      };
    }),
    markFinished: assign({ feed: { status: 'finished' } as FeedState }),
    markFailed: assign(({ event }) => {
      assertEvent(event, 'scan.failed');
      return { feed: { status: 'failed', code: event.code, message: scanErrorMessage(event.code) } as FeedState };
    }),
    markCancelled: assign({
      feed: {
        status: 'failed',
        code: DWT_ERROR_CODES.cancelled,
        message: scanErrorMessage(DWT_ERROR_CODES.cancelled),
      } as FeedState,
    }),
    endJob: assign(({ context }) => ({
      loading: false,
      job: null,
      queue: [],
      lastError: context.feed.status === 'failed' ? context.feed.message : null,
    })),
  },
  guards: {
    noSources: ({ context }) => context.sources.length === 0,
    chosenSourceMissing: ({ context }) => !isChosenSourceListed(context.settings, context.sources),
    hasQueued: ({ context }) => context.queue.length > 0,
    hasQueuedAfterHead: ({ context }) => context.queue.length > 1,
    feedEnded: ({ context }) => context.feed.status !== 'running',
    endedWith: ({ context }, params: { code: number }) => context.feed.status === 'failed' && context.feed.code === params.code,
    endedFailed: ({ context }) => context.feed.status === 'failed',
  },
}).createMachine({
  id: 'scanner',
  context: ({ input }) => ({
    sources: [],
    settings: input.settings ?? DEFAULT_SCANNER_SETTINGS,
    loading: false,
    counts: { transferred: 0, emitted: 0, failedConversions: 0 },
    queue: [],
    feed: { status: 'finished' },
    job: null,
    lastPage: null,
    lastError: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        src: 'loadDriver',
        onDone: { target: 'ready', actions: assign({ sources: ({ event }) => event.output.sources, lastError: null }) },
        onError: {
          target: 'serviceNotInstalled',
          actions: assign({ sources: [], lastError: SERVICE_NOT_INSTALLED_MESSAGE }),
        },
      },
      on: { 'settings.changed': { actions: 'storeSettings' } },
    },
    ready: { on: { ...idleHandlers } },
    configuring: {
      tags: 'busy',
      initial: 'selecting',
      states: {
        selecting: {
          invoke: {
            src: 'selectSource',
            input: ({ context }) => ({ index: context.settings.scannerIndex ?? -1 }),
            onDone: 'applying',
            // Nothing was opened: no source to close.
            onError: {
              target: '#scanner.sourceNotSelectable',
              actions: assign({ loading: false, job: null, lastError: ({ event }) => scanErrorMessage(errorCode(event.error)) }),
            },
          },
        },
        applying: {
          invoke: {
            src: 'configureSource',
            input: ({ context }) => scanSourceConfig(context.settings),
            onDone: '#scanner.scanning',
            onError: {
              target: '#scanner.closing',
              actions: assign({
                feed: ({ event }) =>
                  ({
                    status: 'failed',
                    code: errorCode(event.error),
                    message: scanErrorMessage(errorCode(event.error)),
                  }) as FeedState,
              }),
            },
          },
        },
      },
      on: { 'scan.cancelled': { target: 'closing', actions: 'markCancelled' } },
    },
    scanning: {
      tags: 'busy',
      invoke: { id: 'acquire', src: 'acquire', input: ({ context }) => scanSourceConfig(context.settings) },
      initial: 'acquiring',
      states: {
        acquiring: {
          on: {
            'scan.transferred': { target: 'transforming', actions: 'enqueue' },
            'scan.finished': { target: '#scanner.closing', actions: 'markFinished' },
            'scan.failed': { target: '#scanner.closing', actions: 'markFailed' },
          },
        },
        transforming: {
          invoke: {
            src: 'transformImage',
            input: ({ context }) => {
              const [head] = context.queue;
              const job = context.job ?? context.settings;
              if (!head) throw new Error('transforming with an empty queue');
              return { image: head.image, sequence: head.sequence, paperSize: job.paperSize, scanSubject: job.scanSubject };
            },
            onDone: {
              target: 'emitting',
              actions: assign(({ context, event }) => ({ queue: context.queue.slice(1), lastPage: event.output })),
            },
            onError: [
              { guard: 'hasQueuedAfterHead', target: 'transforming', reenter: true, actions: 'dropFailed' },
              { guard: 'feedEnded', target: '#scanner.closing', actions: 'dropFailed' },
              { target: 'acquiring', actions: 'dropFailed' },
            ],
          },
          on: {
            'scan.transferred': { actions: 'enqueue' },
            'scan.finished': { actions: 'markFinished' },
            'scan.failed': { actions: 'markFailed' },
          },
        },
        emitting: {
          entry: [
            { type: 'emitPage', params: ({ context }) => context.lastPage as ScannedPage },
            assign(({ context }) => ({ loading: false, counts: { ...context.counts, emitted: context.counts.emitted + 1 } })),
          ],
          always: [
            { guard: 'hasQueued', target: 'transforming' },
            { guard: 'feedEnded', target: '#scanner.closing' },
            { target: 'acquiring' },
          ],
        },
      },
      on: {
        'scan.cancelled': { target: 'closing', actions: 'markCancelled' },
      },
    },
    closing: {
      tags: 'busy',
      invoke: {
        src: 'closeSource',
        // A source that fails to close is still done with; what the user needs to know is how the scan went.
        onDone: { target: 'settled' },
        onError: { target: 'settled' },
      },
    },
    settled: {
      entry: 'endJob',
      always: [
        { guard: { type: 'endedWith', params: { code: DWT_ERROR_CODES.feederJam } }, target: 'feederJam' },
        { guard: { type: 'endedWith', params: { code: DWT_ERROR_CODES.doubleFeed } }, target: 'doubleFeed' },
        { guard: 'endedFailed', target: 'acquisitionError' },
        { target: 'ready' },
      ],
    },
    noSource: { tags: 'failed', on: { ...idleHandlers, 'scanner.dismissed': { target: 'ready', actions: 'clearError' } } },
    sourceNotSelectable: {
      tags: 'failed',
      on: { ...idleHandlers, 'scanner.dismissed': { target: 'ready', actions: 'clearError' } },
    },
    acquisitionError: {
      tags: 'failed',
      on: { ...idleHandlers, 'scanner.dismissed': { target: 'ready', actions: 'clearError' } },
    },
    feederJam: { tags: 'failed', on: { ...idleHandlers, 'scanner.dismissed': { target: 'ready', actions: 'clearError' } } },
    doubleFeed: { tags: 'failed', on: { ...idleHandlers, 'scanner.dismissed': { target: 'ready', actions: 'clearError' } } },
    serviceNotInstalled: {
      tags: 'failed',
      on: { 'scanner.reload': 'loading', 'settings.changed': { actions: 'storeSettings' } },
    },
  },
});

export type ScannerMachine = typeof scannerMachine;
export type ScannerLogic = ActorLogicFrom<ScannerMachine>;
