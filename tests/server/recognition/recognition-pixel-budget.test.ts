/**
 * The memory recognition takes is bounded by the pixels of the pages read at once, not by the cores.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegDimensions } from '../../../server/lib/image-limits';
import type { RecognitionEngine } from '../../../server/services/recognition/recognition-engine';
import { createRecognitionEngine } from '../../../server/services/recognition/recognition-worker-pool';
import { seededRandom } from '../../../src/shared/lib/simulated-scan';
import {
  randomMarks,
  renderSyntheticSheet,
  sheetFixture,
  standardSpec,
  type SyntheticSheet,
} from '../../support/synthetic-sheets';

const fixture = sheetFixture(standardSpec(4102));
const page = fixture.template.pages[0]!;

describe('jpegDimensions', () => {
  it('reads the frame header without decoding, and answers null for what is not a JPEG', async () => {
    const data = await sharp({ create: { width: 123, height: 45, channels: 3, background: '#fff' } })
      .jpeg({ progressive: true })
      .toBuffer();
    expect(jpegDimensions(data)).toEqual({ width: 123, height: 45 });
    expect(jpegDimensions(Buffer.from('%PDF-1.7'))).toBeNull();
  });
});

describe('the recognition engine under a pixel budget', () => {
  let sheets: SyntheticSheet[];

  beforeAll(async () => {
    sheets = [];
    for (let i = 0; i < 3; i += 1) {
      sheets.push(
        await renderSyntheticSheet(fixture, {
          student: { name: `学生${i + 1}`, code: `20260102${i + 1}` },
          marks: randomMarks(page, seededRandom(60 + i)),
          seed: 60 + i,
        }),
      );
    }
  });

  /** The most pages whose template the workers asked for at the same time. */
  async function mostAtOnce(engine: RecognitionEngine): Promise<number> {
    let now = 0;
    let most = 0;
    await Promise.all(
      sheets.map((sheet) =>
        engine.recognize(sheet.jpeg, async () => {
          now += 1;
          most = Math.max(most, now);
          await new Promise((resolve) => setTimeout(resolve, 300));
          now -= 1;
          return fixture.template;
        }),
      ),
    );
    return most;
  }

  const engines: RecognitionEngine[] = [];
  afterAll(async () => {
    await Promise.all(engines.map((engine) => engine.close()));
  });

  it('reads one page at a time when two do not fit the budget, however many threads it has', async () => {
    const pixels = jpegDimensions(sheets[0]!.jpeg)!;
    const engine = createRecognitionEngine({ threads: 3, pixelBudget: pixels.width * pixels.height * 1.5 });
    engines.push(engine);
    expect(await mostAtOnce(engine)).toBe(1);
  }, 120_000);

  it('reads pages side by side when the budget has room', async () => {
    const engine = createRecognitionEngine({ threads: 3 });
    engines.push(engine);
    expect(await mostAtOnce(engine)).toBeGreaterThan(1);
  }, 120_000);
});
