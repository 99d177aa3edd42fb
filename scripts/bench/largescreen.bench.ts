// Benchmark: live updates at the scale of a district. Starts two server instances (separate processes)
// on one PostgreSQL, one Redis (a private redis-server on a free port when the binary is here,
// otherwise REDIS_URL) and one bucket (s3rver, in this process: no shared disk), and a third process with BENCH_SCREENS (default 1,000) socket.io-client
// connections split across the two, each a wall screen paired through the pairing's service (its own display
// token, a whole-school screen) and joined by the server to the screen rooms of its scope (the path of a real
// wall screen: the scoped rooms, after the homework's rooms are looked up, not the teachers' school room).
// Then stores BENCH_EVENTS scanned pages through instance A's real upload endpoint, one at a time, and
// measures for each the time from the event being raised on A (right after its broadcast) to each
// screen hearing it, on both instances: p50/p95/max over every delivery, and per page the time until
// every screen has it (the goal: p95 <= 100 ms). Also the connection set-up time. PostgreSQL comes from
// BENCH_POSTGRES_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres); a fresh database is
// created and dropped. Skips with a message when PostgreSQL or Redis is missing.
import { type ChildProcess, fork, spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import S3rver from 's3rver';
import sharp from 'sharp';
import { OAUTH_BASIC_HEADER } from '../../src/shared/contract/auth';
import { DEMO_PASSWORD } from '../../server/db/seed';
import { freePort, startServer } from './bench-server';

const SCREENS = Number(process.env.BENCH_SCREENS ?? 1000);
/** Processes the screens are spread over (a real screen is a machine of its own: one process for all
 * 1,000 adds its own queueing to "until every screen"). */
const SCREEN_PROCESSES = Math.max(1, Number(process.env.BENCH_SCREEN_PROCESSES ?? 1));
const EVENTS = Number(process.env.BENCH_EVENTS ?? 40);
const WARMUP = 3;
const GOAL_P95_MS = 100;
const root = path.resolve(import.meta.dirname, '../..');
const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');
const now = () => performance.timeOrigin + performance.now();

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;
const summary = (values: number[]) =>
  `p50 ${ms(percentile(values, 50))}  p95 ${ms(percentile(values, 95))}  max ${ms(Math.max(...values))}`;

function skip(reason: string): never {
  console.log(`largescreen: skipped — ${reason}`);
  process.exit(0);
}

const cleanups: (() => Promise<void> | void)[] = [];
async function cleanUp() {
  for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
}

// ---- PostgreSQL and Redis -------------------------------------------------------------------------------

async function database(): Promise<string> {
  const adminUrl = process.env.BENCH_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch {
    skip(`no PostgreSQL at ${adminUrl} (set BENCH_POSTGRES_ADMIN_URL)`);
  }
  const name = `smart_homework_bench_${randomBytes(4).toString('hex')}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function redisAnswers(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 1500, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** A private redis-server (nobody else's messages on its channels), or REDIS_URL. */
async function redis(): Promise<{ url: string; own: boolean }> {
  if (spawnSync('redis-server', ['--version']).status === 0) {
    const port = await freePort();
    const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    cleanups.push(() => void server.kill());
    const url = `redis://127.0.0.1:${port}`;
    for (let i = 0; i < 50 && !(await redisAnswers(url)); i += 1) await new Promise((r) => setTimeout(r, 100));
    if (await redisAnswers(url)) return { url, own: true };
  }
  const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  if (await redisAnswers(url)) return { url, own: false };
  return skip(`no Redis (no redis-server binary, nothing answers at ${url})`);
}

// ---- processes --------------------------------------------------------------------------------------------

type Message = { type: string; [key: string]: unknown };

function child(script: string, env: Record<string, string>): ChildProcess {
  const proc = fork(path.join(import.meta.dirname, script), [], {
    execPath: process.execPath,
    execArgv: [tsx],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // Stopped before what it uses (cleanups run in reverse), and waited for.
  cleanups.push(async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  });
  return proc;
}

/** An S3-compatible bucket both instances keep their files in (no shared disk). */
async function bucket(): Promise<Record<string, string>> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'sh-bench-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: 'bench' }] });
  const { port } = await server.run();
  cleanups.push(async () => {
    await server.close();
    fs.rmSync(directory, { recursive: true, force: true });
  });
  return {
    STORAGE: 's3',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_BUCKET: 'bench',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  };
}

function nextMessage(proc: ChildProcess, type: string, timeoutMs = 600_000): Promise<Message> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (message: Message) => {
      if (message.type !== type) return;
      clearTimeout(timer);
      proc.off('message', onMessage);
      resolve(message);
    };
    proc.on('message', onMessage);
    proc.once('exit', (code) => reject(new Error(`process exited (${code}) before ${type}`)));
  });
}

async function startInstance(name: string, env: Record<string, string>): Promise<{ url: string; proc: ChildProcess }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `sh-bench-${name}-`));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  // BENCH_PROFILE=<dir>: each instance writes a V8 CPU profile there when it stops.
  const server = await startServer({
    script: 'scripts/bench/largescreen-server.ts',
    env: { ...env, DATA_DIR: dataDir },
    profile: true,
    timeoutMs: 600_000,
  });
  // Stopped before what it uses (cleanups run in reverse), and waited for.
  cleanups.push(server.stop);
  return { url: server.base, proc: server.proc };
}

// ---- the API, as a client ------------------------------------------------------------------------------------

async function api<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  const body = (await response.json()) as { code: number; msg: string; data: T };
  if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: ${response.status} ${body.msg}`);
  return body.data;
}

async function login(base: string): Promise<string> {
  const { captchaKey } = await api<{ captchaKey: string }>(`${base}/api/captcha`);
  const outbox = await api<{ captcha: { key: string; text: string }[] }>(`${base}/api/dev/outbox`);
  const captcha = outbox.captcha.find((entry) => entry.key === captchaKey)!.text;
  const form = new URLSearchParams({ grant_type: 'password', username: 'teacher', password: DEMO_PASSWORD, captchaKey, captcha });
  const token = await api<{ access_token: string }>(`${base}/api/oauth/oauth/token`, {
    method: 'POST',
    headers: { authorization: OAUTH_BASIC_HEADER, 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  return token.access_token;
}

// ---- the run ------------------------------------------------------------------------------------------------------

async function main() {
  const databaseUrl = await database();
  const { url: redisUrl, own } = await redis();
  const env = {
    ...(await bucket()),
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    HOST: '127.0.0.1',
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'true',
    // The demo's simulated scanning would raise page events of its own beside the bench's.
    DEMO_SCANS: 'false',
    DEV_OUTBOX: 'true',
    CLIENT_DIR: '/nonexistent-client-dir',
    LOGIN_PER_ACCOUNT_PER_MINUTE: '1000',
    RATE_LIMIT_PER_MINUTE: '100000',
  };
  console.log(
    `machine: ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    `PostgreSQL ${databaseUrl.replace(/\/\/[^@]*@/, '//')}, Redis ${redisUrl}${own ? ' (private)' : ''}, files in s3rver`,
  );
  let t = now();
  // One after the other: the first migrates and seeds the database, the second finds it ready.
  const a = await startInstance('a', env);
  const b = await startInstance('b', env);
  console.log(`two instances up in ${ms(now() - t)}: A ${a.url}, B ${b.url}`);

  // The scanning teacher's token uploads the pages; the screens are wall screens with display tokens.
  const tokens = [await login(a.url)];
  t = now();
  const paired = nextMessage(a.proc, 'paired');
  a.proc.send({ type: 'pair', count: SCREENS });
  const { tokens: displayTokens, error } = (await paired) as Message & { tokens: string[]; error?: string };
  if (error) throw new Error(`pairing the screens: ${error}`);
  console.log(
    `${displayTokens.length} wall screens paired (display tokens, whole-school scope, every panel) in ${ms(now() - t)}`,
  );
  let first = 0;
  const screenProcs = Array.from({ length: SCREEN_PROCESSES }, (_, i) => {
    const count = Math.floor(SCREENS / SCREEN_PROCESSES) + (i < SCREENS % SCREEN_PROCESSES ? 1 : 0);
    const concurrency = Math.ceil(50 / SCREEN_PROCESSES);
    const own = displayTokens.slice(first, (first += count));
    return child('largescreen-clients.ts', {
      BENCH_CLIENTS: JSON.stringify({ urls: [a.url, b.url], tokens: own, count, concurrency }),
    });
  });
  t = now();
  const readies = await Promise.all(screenProcs.map((proc) => nextMessage(proc, 'ready')));
  const connectMs = readies.flatMap((ready) => ready.connectMs as number[]);
  const failed = readies.reduce((sum, ready) => sum + (ready.failed as number), 0);
  const setUpMs = Math.max(...readies.map((ready) => ready.totalMs as number));
  console.log(
    `\n${connectMs.length} screens in ${SCREEN_PROCESSES} process(es) signed in and joined (${failed} failed), half on each instance, in ${ms(setUpMs)} (50 at a time)`,
  );
  console.log(`  connection set-up, each: ${summary(connectMs)}`);

  // Pages through A's real upload endpoint; A reports when it raised each page's event.
  // Keyed by batch and page count, as the screens key what they hear: only the bench's batch is measured.
  const raised = new Map<string, number>();
  a.proc.on('message', (message: Message) => {
    if (message.type === 'raised') raised.set(`${String(message.batchId)}:${String(message.pageCount)}`, message.at as number);
  });
  const auth = { authorization: `Bearer ${tokens[0]}` };
  const batch = await api<{ id: number }>(`${a.url}/api/scan/batches`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ stationName: '性能测试扫描站' }),
  });
  for (const proc of [a.proc, b.proc, ...screenProcs]) proc.send({ type: 'mark' });
  const sent = new Map<number, number>();
  const uploadMs: number[] = [];
  // Every page made before the first is sent, so making them costs nothing during the measurement.
  const pages = await Promise.all(
    Array.from({ length: WARMUP + EVENTS }, (_, i) =>
      sharp({ create: { width: 827, height: 1169, channels: 3, background: { r: 250, g: 250 - (i % 50), b: 245 } } })
        .jpeg({ quality: 80 })
        .toBuffer(),
    ),
  );
  for (const [i, page] of pages.entries()) {
    const form = new FormData();
    for (const [name, value] of Object.entries({
      batchId: batch.id,
      imageId: randomUUID(),
      sequence: i + 1,
      scanSubject: true,
      width: 827,
      height: 1169,
    })) {
      form.append(name, String(value));
    }
    form.append('file', new Blob([new Uint8Array(page)], { type: 'image/jpeg' }), 'page.jpg');
    const start = now();
    const stored = await api<{ batchPageCount: number }>(`${a.url}/api/scan/pages`, {
      method: 'POST',
      headers: auth,
      body: form,
    });
    uploadMs.push(now() - start);
    sent.set(stored.batchPageCount, start);
    // One page at a time, as a scanner feeds them: the next once this one has had time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const busy = await Promise.all(
    [a.proc, b.proc].map((proc) => {
      const answer = nextMessage(proc, 'busy');
      proc.send({ type: 'busy' });
      return answer;
    }),
  );
  const answers = await Promise.all(
    screenProcs.map((proc) => {
      const answer = nextMessage(proc, 'report');
      proc.send({ type: 'report' });
      return answer;
    }),
  );
  // Every process's receive times, per page and instance, together: in the handler, and on receipt.
  const merge = (key: 'heard' | 'received') => {
    const report: Record<string, [number[], number[]]> = {};
    for (const answer of answers) {
      for (const [eventKey, [onA = [], onB = []]] of Object.entries(answer[key] as Record<string, [number[], number[]]>)) {
        const merged = (report[eventKey] ??= [[], []]);
        merged[0].push(...onA);
        merged[1].push(...onB);
      }
    }
    return report;
  };
  const percent = (value: unknown) => `${((value as number) * 100).toFixed(0)}%`;

  const measure = (report: Record<string, [number[], number[]]>) => {
    const deliveries: number[] = [];
    const perInstance: [number[], number[]] = [[], []];
    const fromUpload: number[] = [];
    const everyScreen: number[] = [];
    let missing = 0;
    for (const [key, raisedAt] of raised) {
      const [batchId, pageCount] = key.split(':').map(Number);
      if (batchId !== batch.id || pageCount! <= WARMUP) continue;
      const [onA = [], onB = []] = report[key] ?? [];
      const times = [...onA, ...onB];
      missing += connectMs.length - times.length;
      onA.forEach((at) => perInstance[0].push(at - raisedAt));
      onB.forEach((at) => perInstance[1].push(at - raisedAt));
      for (const at of times) {
        deliveries.push(at - raisedAt);
        fromUpload.push(at - sent.get(pageCount!)!);
      }
      if (times.length > 0) everyScreen.push(Math.max(...times) - raisedAt);
    }
    return { deliveries, perInstance, fromUpload, everyScreen, missing };
  };
  const verdict = (values: number[]) =>
    `goal p95 <= ${GOAL_P95_MS} ms: ${percentile(values, 95) <= GOAL_P95_MS ? 'met' : 'NOT met'}`;
  const handled = measure(merge('heard'));
  const onReceipt = measure(merge('received'));
  console.log(
    `\n${handled.everyScreen.length} events raised on A (after ${WARMUP} warm-up pages), each to ${connectMs.length} screens:`,
  );
  for (const [title, m] of [
    ['in the event handler (after socket.io parsed it)', handled],
    ['on receipt of the raw message (before parsing)', onReceipt],
  ] as const) {
    console.log(`  ${title}:`);
    console.log(`    raised -> received, every delivery:      ${summary(m.deliveries)}   ${verdict(m.deliveries)}`);
    console.log(`      screens on A (the raising instance):   ${summary(m.perInstance[0])}`);
    console.log(`      screens on B (through Redis):          ${summary(m.perInstance[1])}`);
    console.log(`    raised -> received by every screen:      ${summary(m.everyScreen)}   ${verdict(m.everyScreen)}`);
    console.log(`    upload sent -> received (incl. storing): ${summary(m.fromUpload)}`);
    console.log(`    deliveries missing: ${m.missing}`);
  }
  const dup = (i: number) => answers.reduce((sum, answer) => sum + (answer.duplicates as number[])[i]!, 0);
  console.log(`  events a screen heard twice (in the handler): on A ${dup(0)}, on B ${dup(1)}`);
  console.log(`  the upload itself (HTTP, 827x1169 JPEG): ${summary(uploadMs.slice(WARMUP))}`);
  console.log(
    `  event loops busy meanwhile: A ${percent(busy[0]!.utilization)}, B ${percent(busy[1]!.utilization)}, screens' process(es) ${answers.map((answer) => percent(answer.utilization)).join(' ')}`,
  );
  console.log(
    `  CPU time meanwhile: A ${ms(busy[0]!.cpuMs as number)}, B ${ms(busy[1]!.cpuMs as number)}, screens' process(es) ${answers
      .map(
        (answer) =>
          `${ms(answer.cpuMs as number)} of ${ms(answer.wallMs as number)} (${percent((answer.cpuMs as number) / (answer.wallMs as number))} of one core)`,
      )
      .join(', ')}`,
  );
  console.log(
    `  load average now: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}

try {
  await main();
} catch (error) {
  console.error(`largescreen: failed — ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
