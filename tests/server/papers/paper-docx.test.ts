import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PaperDetail, Question } from '../../../src/shared/contract/papers';
import { formulaOmml, renderPaperDocx, richLines } from '../../../server/services/papers/paper-docx';
import { storedImageLoader } from '../../../server/services/papers/stored-image';
import { unzip } from './papers-helper';

const run = promisify(execFile);
const LIBREOFFICE = ['/usr/bin/libreoffice', '/usr/bin/soffice'].find((file) => existsSync(file));

function question(id: number, overrides: Partial<Question>): Question {
  return {
    id,
    subjectId: 1,
    type: 'single',
    stem: '',
    options: [],
    answer: ['A'],
    analysis: '',
    difficulty: 2,
    chapterIds: [],
    knowledgePointIds: [],
    knowledgePointNames: [],
    source: '',
    usageCount: 0,
    shared: true,
    ...overrides,
  };
}

let png: string;
let stored: Buffer;

function paper(): PaperDetail {
  const items = [
    question(1, {
      stem: '<p>$-\\frac{2}{3}$ 的相反数是</p>',
      options: ['$\\frac{2}{3}$', '$-\\frac{3}{2}$', '$\\frac{3}{2}$', '$-\\frac{2}{3}$'],
      analysis: '相反数：$-a$ 与 $a$',
    }),
    question(2, {
      type: 'subjective',
      stem: `<p>如图，求 <b>阴影</b> 部分面积 $S=\\sqrt{a^2+b^2}$。</p><p><img src="${png}" width="120"></p><p><img src="/files/figures/tri.png"></p>`,
      answer: ['$S=5$'],
    }),
    question(3, { type: 'blank', stem: '计算：$x^{2}\\cdot x^{3}=$ ______', answer: ['$x^5$'] }),
  ];
  return {
    id: 1,
    title: '公式与图片测试卷',
    subjectId: 1,
    subjectName: '数学',
    schoolYearId: 1,
    paperSize: 'A4',
    totalScore: 20,
    questionCount: 3,
    sections: [{ title: '一、试题', questions: items.map((q, i) => ({ questionId: q.id, no: i + 1, score: 5, question: q })) }],
  };
}

describe('the Word paper', () => {
  beforeAll(async () => {
    const image = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    png = `data:image/png;base64,${image.toString('base64')}`;
    stored = await sharp({ create: { width: 900, height: 300, channels: 3, background: '#cc6633' } })
      .webp()
      .toBuffer();
  });

  it('turns a TeX formula into a Word equation', () => {
    const omml = formulaOmml('-\\frac{2}{3}');
    expect(omml).toContain('<m:oMath');
    expect(omml).toContain('<m:f>');
    expect(formulaOmml('\\frac{1}{')).toBeNull();
  });

  it('keeps what follows a big operator inside a run (mathml2omml leaves it as bare text)', () => {
    const omml = formulaOmml('\\sum_{i=1}^{n} i = 1')!;
    expect(omml).toContain('<m:nary>');
    expect(omml).not.toMatch(/<\/m:r>[^<]/);
    expect(omml).toContain('<m:t xml:space="preserve">=1</m:t>');
  });

  it('reads rich text as lines of text, formulas and images', () => {
    expect(richLines('<p>a <b>b</b> $x^2$</p><p><img src="/files/a.png" width="50"></p>')).toEqual([
      [
        { kind: 'text', text: 'a ', style: {} },
        { kind: 'text', text: 'b', style: { bold: true } },
        { kind: 'text', text: ' ', style: {} },
        { kind: 'formula', tex: 'x^2' },
      ],
      [{ kind: 'image', src: '/files/a.png', width: 50, height: undefined }],
    ]);
  });

  it('writes formulas as OMML equations and embeds the images (inline and stored)', async () => {
    const loadImage = async (src: string) => (src === '/files/figures/tri.png' ? stored : null);
    const file = await renderPaperDocx(paper(), { withAnswers: true, loadImage });
    const files = unzip(file);
    const document = files.get('word/document.xml')!.toString('utf8');
    expect(document.match(/<m:oMath[ >]/g)?.length ?? 0).toBeGreaterThanOrEqual(10);
    expect(document).toContain('<m:f>');
    expect(document).toContain('<m:rad>');
    expect(document).not.toMatch(/\$[^$<]*\\frac/);
    expect(document).not.toContain('[图]');
    expect(document.match(/<w:drawing>/g)).toHaveLength(2);
    const media = [...files.keys()].filter((name) => name.startsWith('word/media/'));
    expect(media).toHaveLength(2);
    expect(document).toContain('阴影');
    expect(document).toMatch(/<w:b\/>.*阴影|<w:b \/>/s);
  });

  it('writes [图] for an image it cannot read', async () => {
    const broken = paper();
    broken.sections[0]!.questions[1]!.question.stem = '<p><img src="/files/missing.png"></p>';
    const document = unzip(await renderPaperDocx(broken, { withAnswers: false }))
      .get('word/document.xml')!
      .toString('utf8');
    expect(document).toContain('[图]');
  });

  it.skipIf(!LIBREOFFICE)(
    'opens in LibreOffice (converted to PDF)',
    async () => {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'paper-docx-'));
      try {
        const loadImage = async (src: string) => (src === '/files/figures/tri.png' ? stored : null);
        await fs.writeFile(path.join(dir, 'paper.docx'), await renderPaperDocx(paper(), { withAnswers: true, loadImage }));
        await run(
          LIBREOFFICE!,
          [
            '--headless',
            `-env:UserInstallation=file://${dir}/profile`,
            '--convert-to',
            'pdf',
            '--outdir',
            dir,
            path.join(dir, 'paper.docx'),
          ],
          {
            timeout: 120_000,
          },
        );
        const pdf = await fs.readFile(path.join(dir, 'paper.pdf'));
        expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
        expect(pdf.length).toBeGreaterThan(5_000);
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
    },
    150_000,
  );
});

describe('stored images for the Word paper', () => {
  it('reads only image files inside the files folder', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'stored-image-'));
    try {
      await fs.mkdir(path.join(dir, 'figures'));
      await fs.writeFile(path.join(dir, 'figures', 'a.png'), 'png-bytes');
      await fs.writeFile(path.join(dir, 'secret.txt'), 'secret');
      const load = storedImageLoader(dir, '/files/');
      expect((await load('/files/figures/a.png'))?.toString()).toBe('png-bytes');
      expect(await load('/files/secret.txt')).toBeNull();
      expect(await load('/files/../../etc/passwd.png')).toBeNull();
      expect(await load('/files/%2e%2e/%2e%2e/x.png')).toBeNull();
      expect(await load('https://elsewhere.example/files/figures/a.png')).toBeNull();
      expect(await load('/files/missing.png')).toBeNull();
      expect(await storedImageLoader(dir, 'https://cdn.example/')('/files/figures/a.png')).toBeNull();
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
