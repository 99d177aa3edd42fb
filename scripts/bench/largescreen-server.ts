/**
 * One server instance for `npm run bench largescreen`, in its own process: the real server from the
 * environment (server/main.ts, as `npm start` runs it), plus a report to the bench over IPC of the moment
 * each scanned page's event was raised (the scan plugin's call of emit on the school's room, before
 * anything is sent). Nothing here changes what the server does (BENCH_RECOGNITION=off aside, below). On
 * request it also pairs the bench's wall screens (display tokens, through the pairing's service).
 */
import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { SCREEN_PANELS } from '../../src/shared/contract/large-screen';
import { SCAN_PAGE_STORED_EVENT, type ScanPageStoredEvent } from '../../src/shared/contract/scan-upload';
import { users } from '../../server/db/schema';
import { main } from '../../server/main';

const now = () => performance.timeOrigin + performance.now();
let server: FastifyInstance | undefined;
await main((app) => {
  server = app;
  // BENCH_RECOGNITION=off: pages wait unrecognised, to see the fan-out without recognition's CPU beside it.
  if (process.env.BENCH_RECOGNITION === 'off') app.marking.queue.disable();
  // The moment the scan plugin calls emit for a page's event, before anything is sent (instrumentation of
  // the bench only: the call goes on unchanged).
  const to = app.realtime.to.bind(app.realtime);
  app.realtime.to = (room) => {
    const operator = to(room);
    const emit = operator.emit.bind(operator);
    operator.emit = (event, ...args) => {
      if (event !== SCAN_PAGE_STORED_EVENT) return emit(event, ...args);
      const at = now();
      const sent = emit(event, ...args);
      const { batchId, pageCount } = args[0] as ScanPageStoredEvent;
      process.send?.({ type: 'raised', at, batchId, pageCount });
      return sent;
    };
    return operator;
  };
});

/**
 * Pairs `count` wall screens as the portal and the screen do, through the pairing's own service: the
 * screen asks for a code, the demo's school creator (an admin) pairs it as a whole-school corridor screen
 * with every panel, and the screen collects its display token. Answers the tokens.
 */
async function pairScreens(count: number): Promise<string[]> {
  const app = server!;
  const service = app.screens.service;
  const [creator] = await app.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'creator'));
  const tokens: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const pairing = await service.requestPairing();
    await service.create(creator!.id, {
      code: pairing.code,
      name: `走廊大屏 ${i + 1}`,
      scopeKind: 'school',
      panels: [...SCREEN_PANELS],
      showNames: false,
    });
    const collected = await service.collect(pairing.secret);
    if (collected.token === null) throw new Error(`screen ${i + 1} not paired: ${collected.status}`);
    tokens.push(collected.token);
  }
  return tokens;
}
process.on('message', (message: { type?: string; count?: number }) => {
  if (message.type !== 'pair') return;
  pairScreens(message.count ?? 0).then(
    (tokens) => process.send?.({ type: 'paired', tokens }),
    (error: unknown) => process.send?.({ type: 'paired', error: (error as Error).message, tokens: [] }),
  );
});

// How busy the event loop was, and the CPU time used, between 'mark' and 'busy' (the bench asks around its events).
let mark = performance.eventLoopUtilization();
let cpuMark = process.cpuUsage();
process.on('message', (message: { type?: string }) => {
  if (message.type === 'mark') {
    mark = performance.eventLoopUtilization();
    cpuMark = process.cpuUsage();
  }
  if (message.type !== 'busy') return;
  const cpu = process.cpuUsage(cpuMark);
  process.send?.({
    type: 'busy',
    utilization: performance.eventLoopUtilization(mark).utilization,
    cpuMs: (cpu.user + cpu.system) / 1000,
  });
});
// The bench gone: shut down as on SIGTERM (server/main.ts handles it).
process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
