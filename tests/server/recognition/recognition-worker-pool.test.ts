import fs from 'node:fs';
import { getPriority } from 'node:os';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecognitionEngine } from '../../../server/services/recognition/recognition-engine';
import { createRecognitionEngine } from '../../../server/services/recognition/recognition-worker-pool';
import type { SheetQrPayload } from '../../../src/shared/contract/answer-sheet';
import { pageReadingSchema } from '../../../src/shared/contract/recognition';
import { seededRandom } from '../../../src/shared/lib/simulated-scan';
import {
  randomMarks,
  renderSyntheticSheet,
  sheetFixture,
  standardSpec,
  type SyntheticSheet,
} from '../../support/synthetic-sheets';

const fixture = sheetFixture(standardSpec(4101));
const page = fixture.template.pages[0]!;

describe('createRecognitionEngine (worker threads)', () => {
  let engine: RecognitionEngine;
  const sheets: SyntheticSheet[] = [];

  beforeAll(async () => {
    engine = createRecognitionEngine({ threads: 2 });
    for (let i = 0; i < 4; i += 1) {
      sheets.push(
        await renderSyntheticSheet(fixture, {
          student: { name: `学生${i + 1}`, code: `20260101${i + 1}` },
          marks: randomMarks(page, seededRandom(40 + i)),
          writeIn: [22, 23],
          seed: 40 + i,
          degrade: { rotationDeg: i - 1.5, upsideDown: i === 2 },
        }),
      );
    }
  });

  afterAll(() => engine.close());

  it('reads pages in parallel, asking the main thread once per page for its template', async () => {
    const asked: (SheetQrPayload | null)[] = [];
    const results = await Promise.all(
      sheets.map((sheet) =>
        engine.recognize(sheet.jpeg, async (qr) => {
          asked.push(qr);
          // The resolver is async on the main thread, like a database lookup.
          await new Promise((resolve) => setTimeout(resolve, 5));
          return fixture.template;
        }),
      ),
    );
    expect(asked.map((qr) => qr?.studentCode).sort()).toEqual(['202601011', '202601012', '202601013', '202601014']);
    for (const [i, { reading, regions }] of results.entries()) {
      expect(pageReadingSchema.parse(reading)).toEqual(reading);
      expect(reading.qr?.studentCode).toBe(`20260101${i + 1}`);
      expect(reading.rotation).toBe(i === 2 ? 180 : 0);
      expect(reading.problems).toEqual([]);
      for (const o of reading.objective) expect(o.marked).toEqual(sheets[i]!.expected.get(o.questionNo));
      expect(regions.map((r) => r.questionNo)).toEqual([21, 22, 23]);
      for (const [j, region] of regions.entries()) {
        expect(Buffer.isBuffer(region.jpeg)).toBe(true);
        const meta = await sharp(region.jpeg).metadata();
        expect([meta.width, meta.height]).toEqual([reading.regions[j]!.width, reading.regions[j]!.height]);
      }
    }
  });

  it('fails a page whose template lookup fails, and goes on with the next', async () => {
    await expect(
      engine.recognize(sheets[0]!.jpeg, async () => {
        throw new Error('database down');
      }),
    ).rejects.toThrow('database down');
    const { reading } = await engine.recognize(sheets[1]!.jpeg, async () => fixture.template);
    expect(reading.objective).toHaveLength(page.objective.length);
  });

  it('fails what is not an image, and goes on with the next', async () => {
    await expect(engine.recognize(Buffer.from('%PDF-1.7 not a scan'), async () => null)).rejects.toThrow('Recognition failed');
    const { reading } = await engine.recognize(sheets[3]!.jpeg, async () => null);
    expect(reading.qr?.studentCode).toBe('202601014');
  });

  it('does not hold on to the caller’s buffer', async () => {
    const image = Buffer.from(sheets[0]!.jpeg);
    await engine.recognize(image, async () => null);
    expect(image.equals(sheets[0]!.jpeg)).toBe(true);
  });

  it('queues more pages than threads and answers every one', async () => {
    const results = await Promise.all(
      Array.from({ length: 7 }, (_, i) => engine.recognize(sheets[i % sheets.length]!.jpeg, async () => null)),
    );
    expect(results.map((r) => r.reading.qr?.studentCode)).toEqual(
      Array.from({ length: 7 }, (_, i) => `20260101${(i % sheets.length) + 1}`),
    );
  });

  it.runIf(process.platform === 'linux')('runs its workers niced, the calling thread at its own priority', async () => {
    await engine.recognize(sheets[0]!.jpeg, async () => null);
    const nice = fs
      .readdirSync('/proc/self/task')
      .map((task) => fs.readFileSync(`/proc/self/task/${task}/stat`, 'utf8'))
      // The 19th field; the 2nd, the name in parentheses, may hold spaces.
      .map((stat) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    const own = getPriority(0);
    expect(nice.filter((n) => n === Math.max(own, 10)).length).toBeGreaterThanOrEqual(2);
    expect(nice).toContain(own);
  });

  it('fails a page when the resolver throws outright', async () => {
    const throwing = (() => {
      throw new Error('not async at all');
    }) as never;
    await expect(engine.recognize(sheets[0]!.jpeg, throwing)).rejects.toThrow('not async at all');
  });

  it('gives up, instead of restarting for ever, when its workers cannot start', async () => {
    const broken = createRecognitionEngine({ threads: 1, workerEntry: new URL('./no-such.worker.ts', import.meta.url) });
    try {
      const messages: string[] = [];
      for (let attempt = 0; attempt < 10 && !messages.at(-1)?.includes('cannot start'); attempt += 1) {
        messages.push(
          await broken
            .recognize(sheets[0]!.jpeg, async () => null)
            .then(
              () => 'read',
              (error: Error) => error.message,
            ),
        );
      }
      expect(messages[0]).toMatch(/Recognition worker (failed|exited)/);
      expect(messages.at(-1)).toMatch(/cannot start its workers/);
      expect(messages).not.toContain('read');
    } finally {
      await broken.close();
    }
  });

  it('rejects the pages still waiting when closed, and any page after', async () => {
    const closing = createRecognitionEngine({ threads: 1 });
    const pending = [sheets[0]!, sheets[1]!].map((sheet) =>
      closing
        .recognize(sheet.jpeg, async () => null)
        .then(
          () => 'read',
          (error: Error) => error.message,
        ),
    );
    await closing.close();
    expect(await Promise.all(pending)).toEqual(['The recognition engine is closed', 'The recognition engine is closed']);
    await expect(closing.recognize(sheets[0]!.jpeg, async () => null)).rejects.toThrow('closed');
  });
});
