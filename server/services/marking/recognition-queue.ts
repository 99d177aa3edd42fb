/**
 * The durable recognition queue. The queue is the database itself: a scanned page waits while
 * scan_pages.status is 'stored'. A worker claims one page at a time in a transaction (FOR UPDATE SKIP
 * LOCKED, so several workers and several server instances never take the same page), marks it
 * 'recognising' and writes a lease and a claim token into page_recognitions. A page whose lease ran out
 * (its instance died) is claimed again; a worker that lost its lease cannot write its late result (the
 * token no longer matches). On stop, in-flight pages are awaited briefly and any left are handed back.
 * Owns claiming, retries and the loop's lifetime; what recognising a page means is `handle`'s business.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { pageRecognitions, scanPages } from '../../db/schema';

/** Seconds a failed page waits before its next attempt, times the attempts so far. */
export const RETRY_BACKOFF_SECONDS = 5;
export type QueueClaim = {
  scanPageId: number;
  orgId: number;
  imageId: string;
  batchId: number;
  /** The homework of the page's scan batch (null: "by QR"). */
  batchHomeworkId: number | null;
  storedPath: string;
  recognitionId: number;
  claimToken: string;
  /** Including this one. */
  attempts: number;
};

export type RecognitionQueueOptions = {
  db: Db;
  /** Recognises one claimed page; throws to retry it (up to maxAttempts) or fail it. */
  handle: (claim: QueueClaim) => Promise<void>;
  /** After the last attempt failed: record the failure (the page stays out of scores). */
  onFailed: (claim: QueueClaim, error: unknown) => Promise<void>;
  /** Whenever this worker found nothing to claim and has nothing in flight. */
  onDrained?: () => Promise<void>;
  log: { error: (obj: object, msg: string) => void };
  concurrency?: number;
  pollMs?: number;
  leaseSeconds?: number;
  maxAttempts?: number;
  stopTimeoutMs?: number;
};

export type RecognitionQueue = ReturnType<typeof createRecognitionQueue>;

export const DEFAULT_LEASE_SECONDS = 300;

function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
}

export function createRecognitionQueue(options: RecognitionQueueOptions) {
  const { db, handle, onFailed, onDrained, log } = options;
  const concurrency = options.concurrency ?? 2;
  const pollMs = options.pollMs ?? 2000;
  const leaseSeconds = options.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  const maxAttempts = options.maxAttempts ?? 3;
  const stopTimeoutMs = options.stopTimeoutMs ?? 10_000;
  let retryBackoffSeconds = RETRY_BACKOFF_SECONDS;

  let running = false;
  let stopping = false;
  let pumping = false;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  const inFlight = new Map<number, { claim: QueueClaim; job: Promise<void> }>();
  /** A claim being taken right now (its transaction not answered yet): stop() waits for it. */
  let claiming: Promise<QueueClaim | null> | null = null;
  let idleWaiters: (() => void)[] = [];

  function notifyIdle() {
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  async function claimNext(): Promise<QueueClaim | null> {
    return db.transaction(async (tx) => {
      const claimed = rowsOf<{
        id: number;
        org_id: number;
        image_id: string;
        batch_id: number;
        homework_id: number | null;
        stored_path: string;
      }>(
        await tx.execute(sql`
          with next as (
            select sp.id from scan_pages sp
            left join page_recognitions pr on pr.scan_page_id = sp.id
            where sp.status = 'stored' or (sp.status = 'recognising' and (pr.lease_until is null or pr.lease_until < now()))
            order by sp.id
            limit 1
            for update of sp skip locked
          )
          update scan_pages set status = 'recognising' from next where scan_pages.id = next.id
          returning scan_pages.id, scan_pages.org_id, scan_pages.image_id, scan_pages.batch_id,
            scan_pages.homework_id, scan_pages.stored_path`),
      );
      const page = claimed[0];
      if (!page) return null;
      const claimToken = randomUUID();
      const leaseUntil = sql`now() + make_interval(secs => ${leaseSeconds})`;
      const [rec] = await tx
        .insert(pageRecognitions)
        .values({
          orgId: page.org_id,
          scanPageId: page.id,
          imageId: page.image_id,
          batchId: page.batch_id,
          leaseUntil,
          claimToken,
          attempts: 1,
        })
        .onConflictDoUpdate({
          target: pageRecognitions.scanPageId,
          set: { leaseUntil, claimToken, attempts: sql`${pageRecognitions.attempts} + 1` },
        })
        .returning({ id: pageRecognitions.id, attempts: pageRecognitions.attempts });
      return {
        scanPageId: page.id,
        orgId: page.org_id,
        imageId: page.image_id,
        batchId: page.batch_id,
        batchHomeworkId: page.homework_id,
        storedPath: page.stored_path,
        recognitionId: rec!.id,
        claimToken,
        attempts: rec!.attempts,
      };
    });
  }

  /**
   * Hands a claimed page back to the queue (it is claimed again, by anyone). After a failure the page
   * waits a little longer with each attempt (it stays 'recognising' under a short lease that nobody
   * holds), so a passing storage or database hiccup does not use up its attempts in a moment.
   */
  async function release(claims: QueueClaim[], error?: unknown): Promise<void> {
    if (claims.length === 0) return;
    const message = error === undefined ? null : String((error as Error)?.message ?? error).slice(0, 500);
    await db.transaction(async (tx) => {
      for (const claim of claims) {
        const retryAfter = message === null || retryBackoffSeconds === 0 ? null : retryBackoffSeconds * claim.attempts;
        const [owned] = await tx
          .update(pageRecognitions)
          .set({
            leaseUntil: retryAfter === null ? null : sql`now() + make_interval(secs => ${retryAfter})`,
            claimToken: null,
            ...(message === null ? {} : { lastError: message }),
          })
          .where(and(eq(pageRecognitions.id, claim.recognitionId), eq(pageRecognitions.claimToken, claim.claimToken)))
          .returning({ id: pageRecognitions.id });
        if (!owned || retryAfter !== null) continue;
        await tx
          .update(scanPages)
          .set({ status: 'stored' })
          .where(and(eq(scanPages.id, claim.scanPageId), eq(scanPages.status, 'recognising')));
      }
    });
  }

  async function run(claim: QueueClaim): Promise<void> {
    try {
      await handle(claim);
    } catch (error) {
      if (stopping) {
        await release([claim]).catch((e: unknown) => log.error({ err: e }, 'recognition: release failed'));
      } else if (claim.attempts >= maxAttempts) {
        log.error({ err: error, imageId: claim.imageId }, 'recognition failed for good');
        await onFailed(claim, error).catch((e: unknown) => log.error({ err: e }, 'recognition: recording a failure failed'));
      } else {
        log.error({ err: error, imageId: claim.imageId }, 'recognition failed, will retry');
        await release([claim], error).catch((e: unknown) => log.error({ err: e }, 'recognition: release failed'));
      }
    }
  }

  async function pump(): Promise<void> {
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      for (;;) {
        again = false;
        let empty = false;
        while (running && inFlight.size < concurrency) {
          claiming = claimNext();
          const claim = await claiming.finally(() => {
            claiming = null;
          });
          if (!claim) {
            empty = true;
            break;
          }
          if (!running) {
            await release([claim]);
            break;
          }
          const job = run(claim).finally(() => {
            inFlight.delete(claim.scanPageId);
            void pump();
          });
          inFlight.set(claim.scanPageId, { claim, job });
        }
        if (again) continue;
        if (inFlight.size === 0 && (empty || !running)) {
          if (running && onDrained) await onDrained();
          if (again) continue;
          notifyIdle();
        }
        break;
      }
    } catch (error) {
      if (running) log.error({ err: error }, 'recognition queue: claiming failed');
      if (inFlight.size === 0) notifyIdle();
    } finally {
      pumping = false;
    }
  }

  let disabled = false;

  return {
    start(): void {
      if (running || disabled) return;
      running = true;
      stopping = false;
      timer = setInterval(() => void pump(), pollMs);
      timer.unref();
      void pump();
    },

    /** A page was stored (or handed back): look now rather than at the next poll. */
    wake(): void {
      if (running) void pump();
    },

    /** Resolves once this worker has nothing to claim and nothing in flight (at once when stopped). */
    idle(): Promise<void> {
      if (!running) return Promise.resolve();
      const waiting = new Promise<void>((resolve) => idleWaiters.push(resolve));
      void pump();
      return waiting;
    },

    /**
     * Stops claiming, waits for a claim being taken and for in-flight pages (up to stopTimeoutMs) and
     * hands back the rest.
     */
    async stop(): Promise<void> {
      if (!running) return;
      running = false;
      stopping = true;
      if (timer) clearInterval(timer);
      // A page claimed while stopping is handed back now, not left to wait out its lease after shutdown.
      const inClaim = claiming;
      if (inClaim) {
        const claim = await inClaim.catch(() => null);
        if (claim && !inFlight.has(claim.scanPageId)) {
          await release([claim]).catch((error: unknown) =>
            log.error({ err: error }, 'recognition queue: handing back pages failed'),
          );
        }
      }
      const pending = [...inFlight.values()];
      let timeout: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled(pending.map((entry) => entry.job)),
        new Promise<void>((resolve) => {
          timeout = setTimeout(resolve, stopTimeoutMs);
        }),
      ]);
      clearTimeout(timeout);
      await release([...inFlight.values()].map((entry) => entry.claim)).catch((error: unknown) =>
        log.error({ err: error }, 'recognition queue: handing back pages failed'),
      );
      notifyIdle();
    },

    /**
     * This instance never recognises (one that only serves requests while others recognise; tests that
     * keep pages waiting). Before the app is ready, so the queue never starts.
     */
    disable(): void {
      disabled = true;
    },

    /** Seconds a failed page waits per attempt before it is tried again (0: at once, as tests want). */
    setRetryBackoff(seconds: number): void {
      retryBackoffSeconds = Math.max(0, seconds);
    },

    get running(): boolean {
      return running;
    },
    /** Is this claim still the page's current one (its lease not taken over)? */
    async owns(tx: Db, claim: QueueClaim): Promise<boolean> {
      const [row] = await tx
        .select({ token: pageRecognitions.claimToken })
        .from(pageRecognitions)
        .where(eq(pageRecognitions.id, claim.recognitionId))
        .for('update');
      return row?.token === claim.claimToken;
    },
  };
}
