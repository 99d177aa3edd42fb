/**
 * The simulated screens of `npm run bench largescreen`, in their own process: BENCH_CLIENTS (JSON: the
 * instances' URLs, one display token per screen, how many sockets) socket.io-client connections, each its own
 * connection (forceNew), spread over the instances in turn, each a paired wall screen that the server joins
 * to its scope's rooms.
 * Reports over IPC how long each took to be joined, then, when asked, when each socket heard each
 * scanned page's event (keyed by its batch and the batch's page count), twice: on receipt, when the raw engine.io
 * message reaches the socket (before socket.io parses it or anything else of this process touches it),
 * and in the event handler (after parsing, as a display sees it); and the process's CPU time meanwhile.
 */
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { SCAN_PAGE_STORED_EVENT, type ScanPageStoredEvent } from '../../src/shared/contract/scan-upload';

type Plan = { urls: string[]; tokens: string[]; count: number; concurrency: number };
const plan = JSON.parse(process.env.BENCH_CLIENTS ?? '{}') as Plan;
const now = () => performance.timeOrigin + performance.now();

const sockets: Socket[] = [];
/** Receive times per page count, one per socket that heard it, per instance (index in plan.urls). */
const heard = new Map<string, number[][]>();
/** The same, taken on receipt of the raw message. */
const received = new Map<string, number[][]>();
const PAGE_COUNT = /"pageCount":(\d+)/;
const BATCH_ID = /"batchId":(\d+)/;
/** An event's key: its batch and page count (the demo feed's batches raise the same event). */
const keyOf = (batchId: unknown, pageCount: unknown) => `${String(batchId)}:${String(pageCount)}`;
const connectMs: number[] = [];
/** Events a socket heard more than once (per instance): each screen should hear each page once. */
const seen = new Set<string>();
const duplicates = plan.urls.map(() => 0);
let failed = 0;

function open(index: number): Promise<void> {
  const started = now();
  const socket = io(plan.urls[index % plan.urls.length]!, {
    path: '/socket.io',
    transports: ['websocket'],
    auth: { token: plan.tokens[index % plan.tokens.length] },
    forceNew: true,
    reconnection: false,
    timeout: 30_000,
  });
  sockets.push(socket);
  // The raw message (a string such as 42["scan.page.stored",{...}]), timed before socket.io decodes it.
  socket.io.on('open', () => {
    socket.io.engine.on('data', (data: unknown) => {
      const at = now();
      if (typeof data !== 'string' || !data.includes(SCAN_PAGE_STORED_EVENT)) return;
      const key = keyOf(BATCH_ID.exec(data)?.[1], PAGE_COUNT.exec(data)?.[1]);
      let lists = received.get(key);
      if (!lists) received.set(key, (lists = plan.urls.map(() => [])));
      lists[index % plan.urls.length]!.push(at);
    });
  });
  socket.on(SCAN_PAGE_STORED_EVENT, (event: ScanPageStoredEvent) => {
    const at = now();
    const key = keyOf(event.batchId, event.pageCount);
    if (seen.has(`${index}:${key}`)) duplicates[index % plan.urls.length]! += 1;
    seen.add(`${index}:${key}`);
    let lists = heard.get(key);
    if (!lists) heard.set(key, (lists = plan.urls.map(() => [])));
    lists[index % plan.urls.length]!.push(at);
  });
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      failed += 1;
      resolve();
    }, 30_000);
    socket.once('server.joined', () => {
      clearTimeout(timer);
      connectMs.push(now() - started);
      resolve();
    });
    socket.once('connect_error', () => {
      clearTimeout(timer);
      failed += 1;
      resolve();
    });
  });
}

const started = now();
let next = 0;
await Promise.all(
  Array.from({ length: plan.concurrency }, async () => {
    while (next < plan.count) await open(next++);
  }),
);
process.send?.({ type: 'ready', connectMs, totalMs: now() - started, failed });

let mark = performance.eventLoopUtilization();
let cpuMark = process.cpuUsage();
let wallMark = now();
process.on('message', (message: { type?: string }) => {
  if (message.type === 'mark') {
    mark = performance.eventLoopUtilization();
    cpuMark = process.cpuUsage();
    wallMark = now();
  }
  if (message.type !== 'report') return;
  const utilization = performance.eventLoopUtilization(mark).utilization;
  const cpu = process.cpuUsage(cpuMark);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  process.send?.(
    {
      type: 'report',
      heard: Object.fromEntries(heard),
      received: Object.fromEntries(received),
      utilization,
      duplicates,
      cpuMs,
      wallMs: now() - wallMark,
    },
    () => {
      for (const socket of sockets) socket.disconnect();
      process.exit(0);
    },
  );
});
process.once('disconnect', () => process.exit(0));
