// Benchmark: personalised re-practice sets (举一反三) for a grade on PGlite. Opens a fresh in-memory
// PGlite, seeds the demo school and its semester (160 students of 2026级 in four classes, thirty marked
// homework, the wrong-question book), then as the demo math teacher makes one personal set for the four
// classes (10 wrong questions + 1 similar question each: up to 20 questions a student) and prints every
// student's paper and answer sheet in one PDF (the cover first). Prints the time of each step, the total
// (goal: <= 10 s) and the sizes.
import os from 'node:os';
import { and, asc, eq } from 'drizzle-orm';
import { openDatabase } from '../../server/db/client';
import { classes, subjects, users } from '../../server/db/schema';
import { seedDemo } from '../../server/db/seed';
import { createRehearseSetService } from '../../server/services/rehearse-sets/rehearse-set.service';

const GOAL_MS = 10_000;

const database = await openDatabase({ kind: 'pglite' });
const db = database.db;
let started = performance.now();
await seedDemo(db, { semester: true });
console.log(`seed (school, semester, book): ${((performance.now() - started) / 1000).toFixed(1)} s (not counted)`);

const [teacher] = await db.select().from(users).where(eq(users.username, 'teacher'));
const [year] = await db
  .select()
  .from(classes)
  .where(and(eq(classes.orgId, teacher!.defaultOrgId!), eq(classes.type, 1)))
  .orderBy(asc(classes.sort), asc(classes.id))
  .limit(1);
const klasses = await db.select().from(classes).where(eq(classes.pid, year!.id)).orderBy(asc(classes.sort), asc(classes.id));
const [math] = await db
  .select()
  .from(subjects)
  .where(and(eq(subjects.orgId, teacher!.defaultOrgId!), eq(subjects.name, '数学')));

const sets = createRehearseSetService({ db });
const options = {
  schoolYearId: year!.id,
  subjectId: math!.id,
  classIds: klasses.map((k) => k.id),
  kind: 'personal' as const,
  count: 10,
  similarPerQuestion: 1,
  seed: 1,
};

const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
let cpuAt = cpu();
const cpuSince = () => {
  const now = cpu();
  const spent = now - cpuAt;
  cpuAt = now;
  return `${spent.toFixed(0)} ms CPU`;
};
started = performance.now();
cpuAt = cpu();
const preview = await sets.preview(teacher!.id, options);
const previewMs = performance.now() - started;
const previewCpu = cpuSince();
const sizes = preview.students.map((s) => s.items.length);

started = performance.now();
const made = await sets.create(teacher!.id, {
  ...options,
  title: '错题重练（基准）',
  startDate: '2026-11-20',
  dueDate: '2026-11-22',
});
const createMs = performance.now() - started;
const createCpu = cpuSince();

started = performance.now();
const { pdf } = await sets.pdf(teacher!.id, made.setId, {});
const pdfMs = performance.now() - started;
const pdfCpu = cpuSince();

const total = createMs + pdfMs;
console.log(
  `students: ${preview.students.length} in ${klasses.length} classes; questions per student: min ${Math.min(...sizes)}, ` +
    `mean ${(sizes.reduce((a, b) => a + b, 0) / sizes.length).toFixed(1)}, max ${Math.max(...sizes)}; ` +
    `${made.questions} questions in all`,
);
console.log(`preview (choice with reasons):          ${previewMs.toFixed(0)} ms (${previewCpu})`);
console.log(`make (papers, sheets, set items):       ${createMs.toFixed(0)} ms (${createCpu})`);
console.log(
  `print (one PDF, cover + every student): ${pdfMs.toFixed(0)} ms (${pdfCpu}), ${(pdf.length / 1024 / 1024).toFixed(1)} MiB`,
);
console.log(
  `load average: ${os
    .loadavg()
    .map((v) => v.toFixed(1))
    .join(' ')} on ${os.cpus().length} cores`,
);
console.log(`make + print: ${(total / 1000).toFixed(2)} s (goal <= ${GOAL_MS / 1000} s) ${total <= GOAL_MS ? 'OK' : 'OVER'}`);
await database.close();
