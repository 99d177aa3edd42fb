/**
 * The simulated screens of `npm run bench largescreen`, in their own process: BENCH_CLIENTS (JSON: the
 * instances' URLs, access tokens, how many sockets) socket.io-client connections, each its own
 * connection (forceNew), spread over the instances in turn, signed in and joined to the school's room.
 * Reports over IPC how long each took to be joined, then, when asked, when each socket heard each
 * scanned page's event (keyed by the batch's page count).
 */
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { SCAN_PAGE_STORED_EVENT, type ScanPageStoredEvent } from '../../src/shared/contract/scan-upload';

type Plan = { urls: string[]; tokens: string[]; count: number; concurrency: number };
const plan = JSON.parse(process.env.BENCH_CLIENTS ?? '{}') as Plan;
const now = () => performance.timeOrigin + performance.now();

const sockets: Socket[] = [];
/** Receive times per page count, one per socket that heard it, per instance (index in plan.urls). */
const heard = new Map<number, number[][]>();
const connectMs: number[] = [];
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
  socket.on(SCAN_PAGE_STORED_EVENT, (event: ScanPageStoredEvent) => {
    const at = now();
    let lists = heard.get(event.pageCount);
    if (!lists) heard.set(event.pageCount, (lists = plan.urls.map(() => [])));
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
process.on('message', (message: { type?: string }) => {
  if (message.type === 'mark') mark = performance.eventLoopUtilization();
  if (message.type !== 'report') return;
  const utilization = performance.eventLoopUtilization(mark).utilization;
  process.send?.({ type: 'report', heard: Object.fromEntries(heard), utilization }, () => {
    for (const socket of sockets) socket.disconnect();
    process.exit(0);
  });
});
process.once('disconnect', () => process.exit(0));
