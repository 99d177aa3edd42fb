/**
 * Marking plugin: wires recognition of scanned pages, the review queue, scoring and marking, and
 * decorates `app.marking`. Owns the recognition queue's lifetime: it starts when the app is ready, wakes
 * whenever the scan plugin stores a page, and stops (waiting for pages in flight, handing back the rest)
 * before the app closes; the engine it created is closed last. Progress goes to the sockets of the homework's school, school year and classes.
 * The logic lives in services/marking; the engine behind services/recognition/recognition-engine.ts.
 */
import { availableParallelism } from 'node:os';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DEFAULT_PARTIAL_CREDIT, MARKING_PROGRESS_EVENT } from '../../src/shared/contract/marking';
import { RECOGNITION_PROGRESS_EVENT } from '../../src/shared/contract/recognition';
import { createMarkingContextLoader } from '../services/marking/marking-context';
import { createProgressNotifier } from '../services/marking/marking-progress';
import { createMarkingService } from '../services/marking/marking.service';
import { createRecognitionQueue } from '../services/marking/recognition-queue';
import { createRecognitionService } from '../services/marking/recognition.service';
import { createReviewService } from '../services/marking/review.service';
import { createScoreTableService } from '../services/marking/score-table.service';
import type { RecognitionEngine } from '../services/recognition/recognition-engine';
import { createRecognitionEngine } from '../services/recognition/recognition-worker-pool';

export type MarkingPluginOptions = {
  /** The recognition engine; by default the real one (worker threads), created when the first page is claimed. */
  engine?: RecognitionEngine;
  /** Multiple choice partial credit of homework that set none. */
  partialCredit?: number;
  /** Pages recognised at once by this instance (and the real engine's worker threads); default the cores. */
  concurrency?: number;
  /** How often the queue looks for pages stored by other instances (ms). */
  pollMs?: number;
};

function buildMarking(app: FastifyInstance, options: MarkingPluginOptions) {
  const db = app.database.db;
  const storage = app.scan.storage;
  const concurrency = Math.max(1, options.concurrency ?? availableParallelism());
  let engine: RecognitionEngine | null = options.engine ?? null;
  let ownEngine = false;
  // Worker threads start with the first page, so an app that never recognises never spawns them.
  const currentEngine = () => {
    if (!engine) {
      engine = createRecognitionEngine({ threads: concurrency });
      ownEngine = true;
    }
    return engine;
  };
  const contexts = createMarkingContextLoader({
    db,
    papers: app.papers.papers,
    defaultPartialCredit: options.partialCredit ?? DEFAULT_PARTIAL_CREDIT,
  });
  const notifier = createProgressNotifier(db, {
    recognitionProgress: (orgId, progress) => app.emitHomework(orgId, progress.homeworkId, RECOGNITION_PROGRESS_EVENT, progress),
    markingProgress: (orgId, progress) => app.emitHomework(orgId, progress.homeworkId, MARKING_PROGRESS_EVENT, progress),
  });
  const log = { error: (obj: object, msg: string) => app.log.error(obj, msg) };
  // The queue and the service refer to each other (ownership checks, handling); wired through `queue`.
  const recognition = createRecognitionService({
    db,
    storage,
    contexts,
    notifier,
    engine: currentEngine,
    owns: (tx, claim) => queue.owns(tx, claim),
    log,
  });
  const queue = createRecognitionQueue({
    db,
    handle: (claim) => recognition.process(claim),
    onFailed: (claim, error) => recognition.fail(claim, error),
    onDrained: () => recognition.drained(),
    log,
    concurrency,
    pollMs: options.pollMs,
  });
  return {
    queue,
    recognition,
    /** Syncs a homework's status and broadcasts its progress after a change. */
    notifier,
    contexts,
    review: createReviewService({ db, contexts, notifier, requeued: () => queue.wake() }),
    marking: createMarkingService({ db, storage, contexts, notifier }),
    scores: createScoreTableService({ db, contexts }),
    /** Replaces the engine (tests, tools); the one it replaces is not closed. Call before the app is ready. */
    useEngine(next: RecognitionEngine) {
      engine = next;
      ownEngine = false;
    },
    /** A page was stored: wake the queue, and show the homework (if the batch names it) as scanning. */
    pageStored(orgId: number, homeworkId: number | null) {
      queue.wake();
      recognition.changed(orgId, homeworkId);
    },
    async closeEngine() {
      if (engine && ownEngine) await engine.close();
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    marking: ReturnType<typeof buildMarking>;
  }
}

async function markingPlugin(app: FastifyInstance, options: MarkingPluginOptions) {
  const marking = buildMarking(app, options);
  app.decorate('marking', marking);
  const unsubscribe = app.scan.onPageStored((orgId, event) => marking.pageStored(orgId, event.homeworkId));
  app.addHook('onReady', async () => {
    marking.queue.start();
  });
  // preClose runs while the database is still open: in-flight pages finish or go back to the queue.
  app.addHook('preClose', async () => {
    unsubscribe();
    await marking.queue.stop();
    await marking.recognition.flush();
  });
  app.addHook('onClose', async () => {
    await marking.closeEngine();
  });
}

export default fp(markingPlugin, { name: 'marking', dependencies: ['db', 'realtime', 'papers', 'scan'] });
