// Benchmark: every analysis report endpoint, answered through the real routes (auth, validation,
// serialisation), on the embedded PGlite and, when DATABASE_URL (or TEST_DATABASE_URL) is set, on
// PostgreSQL in a throwaway schema the bench creates and drops. The school: by default the large school of
// issue 14 (scripts/bench/large-school.ts: 1,000 students x 50 homework x 40 questions, 2 million question
// scores), read by the school's creator (the whole school) and the year's grade director; BENCH_SCHOOL=demo
// uses the seeded demo semester (160 students, 30 homework) instead. Prints p50 / p95 per report in
// milliseconds against the goal of 150 ms p95. BENCH_RUNS (default 30) requests per report after 3 warm-up
// requests. Beside the wall-clock times it prints the process CPU time per request (PGlite runs inside the
// process), the figure to compare on a shared, loaded machine where the wall clock mostly measures waiting
// for a core. BENCH_DB=pglite or postgres runs one of the two. BENCH_SCHEMA=<name> (PostgreSQL) uses and
// keeps that schema, seeding the large school only the first time, so a change can be measured again
// without the minutes of seeding (pending migrations apply to it, backfills included); BENCH_ONLY=<text>
// times only the reports whose name contains the text.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import type { DatabaseOptions } from '../../server/db/client';
import { DEMO_PASSWORD } from '../../server/db/seed';
import { seedSemesterForSchool } from '../../server/db/seed-semester';
import { seedLargeSchool } from './large-school';
import { OAUTH_BASIC_HEADER } from '../../src/shared/contract/auth';
import { testAppConfig } from '../../tests/support/test-app-config';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const GOAL_P95_MS = 150;

async function login(app: FastifyInstance, username: string) {
  const captcha = await app.inject({ method: 'GET', url: '/api/captcha' });
  const captchaKey = captcha.json().data.captchaKey as string;
  const outbox = await app.inject({ method: 'GET', url: '/api/dev/outbox' });
  const text = (outbox.json().data.captcha as { key: string; text: string }[]).find((c) => c.key === captchaKey)!.text;
  const response = await app.inject({
    method: 'POST',
    url: '/api/oauth/oauth/token',
    headers: { authorization: OAUTH_BASIC_HEADER, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'password',
      username,
      password: DEMO_PASSWORD,
      captchaKey,
      captcha: text,
    }).toString(),
  });
  const body = response.json().data as { access_token: string; user: { userGradeInfo: { orgDefaultId: number } } };
  return { authorization: `Bearer ${body.access_token}`, orgId: body.user.userGradeInfo.orgDefaultId };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function benchOn(label: string, database: DatabaseOptions) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sh-bench-analysis-'));
  const app = await buildApp({
    config: testAppConfig(dataDir),
    database,
  });
  await app.ready();
  try {
    const large = process.env.BENCH_SCHOOL !== 'demo';
    const teacher = await login(app, large ? 'creator' : 'teacher');
    const director = await login(app, 'director');
    const started = Date.now();
    let largeYear: number | null = null;
    const seededYear = large
      ? (
          (await app.database.db.execute(
            sql`select id from classes where name = '2030级（压测）' and type = 1 limit 1`,
          )) as unknown as {
            rows: { id: number }[];
          }
        ).rows[0]
      : undefined;
    if (seededYear) {
      largeYear = Number(seededYear.id);
      console.log(`${label}: large school already seeded (school year ${largeYear})`);
    } else if (large) {
      const ids = (await app.database.db.execute(
        sql`select username, id from users where username in ('teacher', 'director')`,
      )) as unknown as { rows: { username: string; id: number }[] };
      const idOf = (name: string) => Number(ids.rows.find((r) => r.username === name)!.id);
      largeYear = await seedLargeSchool(app.database.db, teacher.orgId, idOf('teacher'), idOf('director'), undefined, (m) =>
        console.log(`${label}: ${m}`),
      );
      console.log(`${label}: large school seeded in ${Date.now() - started} ms`);
    } else {
      await seedSemesterForSchool(app.database.db, teacher.orgId);
      console.log(`${label}: demo semester seeded in ${Date.now() - started} ms`);
    }
    const get = async (who: { authorization: string }, url: string) => {
      const response = await app.inject({ method: 'GET', url, headers: { authorization: who.authorization } });
      if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body.slice(0, 200)}`);
      return response.json().data;
    };
    const options = await get(teacher, '/api/analysis/options');
    const year = largeYear ?? (options.schoolYears[0].id as number);
    const math = options.subjects.find((s: { name: string }) => s.name === '数学').id as number;
    const klass = options.classes.find((c: { schoolYearId: number }) => c.schoolYearId === year).id as number;
    const hw = options.homework.find(
      (h: { scored: boolean; subjectId: number; schoolYearId: number }) =>
        h.scored && h.subjectId === math && h.schoolYearId === year,
    ).id as number;
    const grade = await get(teacher, `/api/analysis/grade?schoolYearId=${year}&subjectId=${math}`);
    const student = grade.students[0].studentId as number;
    console.log(
      `${label}: grade view of ${grade.homework.length} homework, ${grade.students.length} students; homework ${hw} has ${
        (await get(teacher, `/api/analysis/homework/${hw}`)).students.length
      } students`,
    );
    const reports: { name: string; who: { authorization: string }; url: string }[] = [
      { name: 'options', who: teacher, url: '/api/analysis/options' },
      { name: 'grade', who: teacher, url: `/api/analysis/grade?schoolYearId=${year}&subjectId=${math}` },
      { name: 'class', who: teacher, url: `/api/analysis/class?classId=${klass}&subjectId=${math}` },
      { name: 'person', who: teacher, url: `/api/analysis/person?studentId=${student}&subjectId=${math}` },
      { name: 'homework', who: teacher, url: `/api/analysis/homework/${hw}` },
      { name: 'homework (one class)', who: teacher, url: `/api/analysis/homework/${hw}?classId=${klass}` },
      { name: 'data centre: subject', who: director, url: `/api/analysis/data-center/subject?schoolYearId=${year}` },
      { name: 'data centre: correct score', who: director, url: `/api/analysis/data-center/correct-score?schoolYearId=${year}` },
      { name: 'data centre: average score', who: director, url: `/api/analysis/data-center/average-score?schoolYearId=${year}` },
      { name: 'big data', who: director, url: '/api/analysis/big-data' },
    ];
    console.log(`${label}: ${RUNS} requests per report (3 warm-up), load average ${os.loadavg()[0]!.toFixed(1)}`);
    console.log(
      `${'report'.padEnd(30)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'cpu p50'.padStart(8)} ${'cpu p95'.padStart(8)}  goal p95 <= ${GOAL_P95_MS}`,
    );
    let failed = 0;
    let timed = 0;
    for (const report of reports) {
      if (process.env.BENCH_ONLY && !report.name.includes(process.env.BENCH_ONLY)) continue;
      timed += 1;
      for (let i = 0; i < 3; i += 1) await get(report.who, report.url);
      const times: number[] = [];
      const cpu: number[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        const t0 = performance.now();
        const c0 = process.cpuUsage();
        await get(report.who, report.url);
        const c1 = process.cpuUsage(c0);
        times.push(performance.now() - t0);
        cpu.push((c1.user + c1.system) / 1000);
      }
      times.sort((a, b) => a - b);
      cpu.sort((a, b) => a - b);
      const p95 = percentile(times, 95);
      if (p95 > GOAL_P95_MS) failed += 1;
      console.log(
        `${report.name.padEnd(30)} ${percentile(times, 50).toFixed(1).padStart(8)} ${p95.toFixed(1).padStart(8)} ${percentile(cpu, 50).toFixed(1).padStart(8)} ${percentile(cpu, 95).toFixed(1).padStart(8)}  ${p95 <= GOAL_P95_MS ? 'ok' : 'OVER'}`,
      );
    }
    console.log(`${label}: ${timed - failed}/${timed} reports within ${GOAL_P95_MS} ms p95`);
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const which = process.env.BENCH_DB;
if (which !== 'postgres') await benchOn('PGlite', { kind: 'pglite' });
const url = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const keptSchema = process.env.BENCH_SCHEMA;
if (url && which !== 'pglite' && keptSchema) {
  await benchOn('PostgreSQL', { kind: 'postgres', url, schemaName: keptSchema });
} else if (url && which !== 'pglite') {
  const schemaName = `bench_${randomBytes(6).toString('hex')}`;
  try {
    await benchOn('PostgreSQL', { kind: 'postgres', url, schemaName });
  } finally {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`drop schema if exists "${schemaName}" cascade`);
    await client.end();
  }
} else if (which !== 'pglite') console.log('PostgreSQL: skipped (DATABASE_URL / TEST_DATABASE_URL is not set)');
