import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pageReadingSchema } from '../../../src/shared/contract/recognition';
import { seededRandom } from '../../../src/shared/lib/simulated-scan';
import {
  randomMarks,
  renderSyntheticSheet,
  sheetFixture,
  standardSpec,
  type SyntheticSheet,
} from '../../support/synthetic-sheets';

const root = path.resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);
const fixture = sheetFixture(standardSpec(4101));
const lineSchema = pageReadingSchema.extend({ file: z.string() });

/** `npm run recognize -- <args>`, as its script line runs it. */
function recognize(args: string[]) {
  return run(
    process.execPath,
    [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(root, 'scripts/recognize.ts'), ...args],
    {
      cwd: root,
      timeout: 120_000,
    },
  ).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
}

describe('npm run recognize', () => {
  let dir: string;
  let sheet: SyntheticSheet;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'recognize-cli-'));
    const page = fixture.template.pages[0]!;
    sheet = await renderSyntheticSheet(fixture, {
      student: { name: '王五', code: '2026010305' },
      marks: randomMarks(page, seededRandom(3)),
      writeIn: [22],
      seed: 3,
      degrade: { rotationDeg: 1.2, upsideDown: true },
    });
    await writeFile(path.join(dir, 'page-1.jpg'), sheet.jpeg);
    await writeFile(path.join(dir, 'template.json'), JSON.stringify(fixture.template));
    // As GET /api/homework/:id/answer-sheet/template answers it.
    await writeFile(path.join(dir, 'envelope.json'), JSON.stringify({ code: 0, msg: 'ok', data: fixture.template }));
  });

  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('prints one JSON line per image with the page reading, in the order given', async () => {
    const image = path.join(dir, 'page-1.jpg');
    const { code, stdout } = await recognize(['--template', path.join(dir, 'template.json'), image, image]);
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      const reading = lineSchema.parse(JSON.parse(line));
      expect(reading.file).toBe(image);
      expect(reading.qr).toEqual({ homeworkId: 4101, page: 1, studentCode: '2026010305' });
      expect(reading.rotation).toBe(180);
      expect(reading.problems).toEqual([]);
      for (const o of reading.objective) expect(o.marked).toEqual(sheet.expected.get(o.questionNo));
      expect(JSON.parse(line)).not.toHaveProperty('jpeg');
    }
  });

  it('takes the template in the API envelope, writes region images on request, and reports a missing image', async () => {
    const regions = path.join(dir, 'regions');
    const missing = path.join(dir, 'missing.jpg');
    const { code, stdout } = await recognize([
      '--template',
      path.join(dir, 'envelope.json'),
      '--regions',
      regions,
      '--threads',
      '1',
      path.join(dir, 'page-1.jpg'),
      missing,
    ]);
    expect(code).toBe(1);
    const [first, second] = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(first.objective).toHaveLength(fixture.template.pages[0]!.objective.length);
    expect(second).toEqual({ file: missing, error: expect.stringContaining('ENOENT') });
    expect((await readdir(regions)).sort()).toEqual(['page-1-q21.jpg', 'page-1-q22.jpg', 'page-1-q23.jpg']);
  });

  it('reads 1-bit PNG and G4 TIFF, lays a transparent PNG on white, reads every page of a multi-page TIFF, and reports tiny, empty and corrupt files while reading on', async () => {
    const grey = sharp(sheet.jpeg).greyscale();
    const files = {
      bitsPng: path.join(dir, 'bits.png'),
      g4: path.join(dir, 'g4.tif'),
      transparent: path.join(dir, 'transparent.png'),
      multi: path.join(dir, 'multi.tif'),
      tiny: path.join(dir, 'tiny.png'),
      empty: path.join(dir, 'empty.jpg'),
      corrupt: path.join(dir, 'corrupt.jpg'),
    };
    await writeFile(files.bitsPng, await grey.clone().threshold(140).png({ palette: true, colours: 2 }).toBuffer());
    await writeFile(
      files.g4,
      await grey.clone().threshold(140).toColourspace('b-w').tiff({ compression: 'ccittfax4', bitdepth: 1 }).toBuffer(),
    );
    // The page only in the alpha channel, over black: what an editor exports with a transparent background.
    const { data, info } = await grey.clone().raw().toBuffer({ resolveWithObject: true });
    const rgba = Buffer.alloc(info.width * info.height * 4);
    for (let i = 0; i < data.length; i += 1) rgba[i * 4 + 3] = 255 - data[i]!;
    await writeFile(
      files.transparent,
      await sharp(rgba, { raw: { ...info, channels: 4 } })
        .png()
        .toBuffer(),
    );
    // Two pages: the sheet, then a blank page.
    const blank = await sharp({ create: { width: info.width, height: info.height, channels: 3, background: '#fff' } })
      .jpeg()
      .toBuffer();
    await writeFile(
      files.multi,
      await sharp([sheet.jpeg, blank], { join: { animated: true } })
        .tiff()
        .toBuffer(),
    );
    await writeFile(
      files.tiny,
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
        .png()
        .toBuffer(),
    );
    await writeFile(files.empty, Buffer.alloc(0));
    await writeFile(files.corrupt, sheet.jpeg.subarray(0, sheet.jpeg.length >> 1));

    const order = [files.bitsPng, files.g4, files.transparent, files.multi, files.tiny, files.empty, files.corrupt];
    const { code, stdout } = await recognize(['--template', path.join(dir, 'template.json'), ...order]);
    expect(code).toBe(1);
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown> & { file: string });
    expect(lines.map((l) => [l.file, l.page ?? null])).toEqual([
      [files.bitsPng, null],
      [files.g4, null],
      [files.transparent, null],
      [files.multi, 1],
      [files.multi, 2],
      [files.tiny, null],
      [files.empty, null],
      [files.corrupt, null],
    ]);
    for (const line of [lines[0]!, lines[1]!, lines[2]!, lines[3]!]) {
      const reading = lineSchema.extend({ page: z.number().optional() }).parse(line);
      expect(reading.qr?.studentCode).toBe('2026010305');
      expect(reading.problems.filter((p) => p.questionNo === undefined)).toEqual([]);
      for (const o of reading.objective) expect(o.marked).toEqual(sheet.expected.get(o.questionNo));
    }
    expect(lineSchema.extend({ page: z.number() }).parse(lines[4]).problems).toEqual([{ kind: 'blankPage' }]);
    expect(lineSchema.parse(lines[5]).problems).toEqual([
      { kind: 'fiducialsNotFound', detail: expect.stringContaining('8 x 8 px: too small for a scanned page') },
    ]);
    expect(lines[6]).toEqual({ file: files.empty, error: expect.stringContaining('empty') });
    expect(lines[7]).toEqual({ file: files.corrupt, error: expect.stringContaining('premature end') });
  }, 180_000);

  it('explains its usage when the template is missing or not one', async () => {
    const withoutTemplate = await recognize([path.join(dir, 'page-1.jpg')]);
    expect(withoutTemplate.code).toBe(2);
    expect(withoutTemplate.stderr).toContain('Usage: npm run recognize -- --template');
    await writeFile(path.join(dir, 'bad.json'), JSON.stringify({ version: 2 }));
    const badTemplate = await recognize(['--template', path.join(dir, 'bad.json'), path.join(dir, 'page-1.jpg')]);
    expect(badTemplate.code).toBe(2);
    expect(badTemplate.stderr).toContain('Cannot read the template');
  });
});
