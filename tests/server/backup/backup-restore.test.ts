/**
 * `npm run backup` / `npm run restore` round-trip a school on the embedded database: a backup taken
 * while the server runs (through the server), then a restore into the stopped server's DATA_DIR brings
 * back the scanned page (row and file) and the scores, undoing what happened after the backup.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { backup, liveServer } from '../../../scripts/backup';
import { restore } from '../../../scripts/restore';
import { buildApp } from '../../../server/app';
import { loadConfig } from '../../../server/config';
import { answers, questionScores, scanPages, students } from '../../../server/db/schema';
import { BACKUP_DATABASE_PATH } from '../../../server/plugins/backup';
import { loginAs } from '../accounts-helper';
import { createBatch, insertHomework, jpeg, uploadPage } from '../scan/scan-helper';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sh-backup-'));
const dataDir = path.join(root, 'data');
const config = {
  ...loadConfig({ NODE_ENV: 'test', DEV_OUTBOX: 'true' }),
  dataDir,
  clientDir: '/nonexistent-client-dir',
  databaseUrl: undefined,
};

async function start(): Promise<FastifyInstance> {
  const app = await buildApp({ config, database: { kind: 'pglite', dataDir: path.join(dataDir, 'pgdata') } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe.skipIf(process.env.TEST_DB_KIND === 'postgres')('backup and restore on the embedded database', () => {
  it('round-trips a school with a scanned page and its scores', async () => {
    let app = await start();
    const teacher = await loginAs(app, 'teacher');
    const orgId = teacher.user.userGradeInfo.orgDefaultId!;
    const homeworkId = await insertHomework(app, orgId, undefined, teacher.user.id);
    const batch = (await createBatch(app, teacher.access_token, { homeworkId, stationName: '教务处扫描站' })).json().data;
    const image = await jpeg(123);
    const imageId = '4f6c2a8e-3b1d-4c5e-9f0a-1b2c3d4e5f60';
    expect((await uploadPage(app, teacher.access_token, { batchId: batch.id, imageId }, image)).statusCode).toBe(200);
    const db = app.database.db;
    const [student] = await db.select().from(students).where(eq(students.orgId, orgId)).limit(1);
    const [answer] = await db
      .insert(answers)
      .values({ orgId, homeworkId, studentId: student!.id, questionNo: 1, labels: ['A'], autoScore: 3 })
      .returning();
    await db
      .insert(questionScores)
      .values({ homeworkId, studentId: student!.id, questionNo: 1, orgId, answerId: answer!.id, score: 3, source: 'auto' });
    const [page] = await db.select().from(scanPages).where(eq(scanPages.imageId, imageId));
    const pageFile = path.join(dataDir, page!.storedPath);
    expect(fs.readFileSync(pageFile)).toEqual(image);

    // The running server's dump endpoint answers only with the key of DATA_DIR/backup-endpoint.json.
    expect(liveServer(dataDir)).not.toBeNull();
    const port = liveServer(dataDir)!.port;
    expect((await fetch(`http://127.0.0.1:${port}${BACKUP_DATABASE_PATH}`)).status).toBe(404);

    const archive = path.join(root, 'backup.zip');
    const written = await backup(config, archive);
    expect(written).toMatchObject({ database: 'pglite', files: 1 });

    // After the backup: the score changes and the page's file is lost.
    await db.update(questionScores).set({ score: 0 }).where(eq(questionScores.homeworkId, homeworkId));
    fs.rmSync(pageFile);

    // Restoring needs the server stopped.
    await expect(restore(config, archive)).rejects.toThrow('stop it before restoring');
    await app.close();
    expect(liveServer(dataDir)).toBeNull();
    const restored = await restore(config, archive);
    expect(restored.files).toBe(1);
    expect(restored.setAside).not.toBeNull();

    app = await start();
    try {
      const again = app.database.db;
      expect(fs.readFileSync(pageFile)).toEqual(image);
      const [score] = await again
        .select()
        .from(questionScores)
        .where(and(eq(questionScores.homeworkId, homeworkId), eq(questionScores.studentId, student!.id)));
      expect(score).toMatchObject({ score: 3, source: 'auto' });
      expect(await again.select().from(scanPages).where(eq(scanPages.imageId, imageId))).toHaveLength(1);
      // And the school's people can still log in.
      expect((await loginAs(app, 'teacher')).user.userGradeInfo.orgDefaultId).toBe(orgId);
    } finally {
      await app.close();
    }
  }, 240_000);

  it('refuses a file that is not a backup and leaves DATA_DIR as it was', async () => {
    const bogus = path.join(root, 'bogus.zip');
    fs.writeFileSync(bogus, 'not a zip at all');
    const before = fs.readdirSync(dataDir).sort();
    await expect(restore(config, bogus)).rejects.toThrow();
    expect(fs.readdirSync(dataDir).sort()).toEqual(before);
  }, 60_000);
});
