import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PaperDetail, Question } from '../../../src/shared/contract/papers';
import { formulaOmml, renderPaperDocx, richLines } from '../../../server/services/papers/paper-docx';
import { storedImageLoader } from '../../../server/services/papers/stored-image';
import { createLocalFileStorage } from '../../../server/services/storage/file-storage';
import { unzip } from './papers-helper';

const run = promisify(execFile);
const LIBREOFFICE = ['/usr/bin/libreoffice', '/usr/bin/soffice'].find((file) => existsSync(file));
// jsdom (the client tests' DOM) has no type declarations here; only its XML parser is used.
const { JSDOM } = createRequire(import.meta.url)('jsdom') as { JSDOM: new () => { window: { DOMParser: typeof DOMParser } } };
const PDFTOTEXT = ['/usr/bin/pdftotext'].find((file) => existsSync(file));

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

  describe('equations LibreOffice reads without a stray ¿', () => {
    // LibreOffice turns each run into StarMath text: an operator with no operand on one side, or an
    // empty argument ("{}"), becomes a placeholder drawn as ¿.
    const lastRunOfArgument =
      /<m:r>(<m:rPr>(?:(?!<\/m:rPr>).)*<\/m:rPr>)?<m:t[^>]*>([^<]*)<\/m:t><\/m:r>(?=<\/m:(?:oMath|e|num|den|sub|sup)>)/g;
    const wellFormed = (omml: string) => {
      const doc = new new JSDOM().window.DOMParser().parseFromString(omml, 'application/xml');
      return doc.getElementsByTagName('parsererror').length === 0;
    };

    it.each(['x^{2}\\cdot x^{3}=', '\\sum_{i=1}^{n} i =', '\\frac{a}{b}+', 'x-'])(
      'puts the operator ending %s into a literal run of its own',
      (tex) => {
        const omml = formulaOmml(tex)!;
        const endings = [...omml.matchAll(lastRunOfArgument)].filter((m) => /[=+\-−⋅]\s*$/.test(m[2]!));
        expect(endings.length).toBeGreaterThan(0);
        for (const ending of endings) expect(ending[1]).toBe('<m:rPr><m:lit/></m:rPr>');
      },
    );

    it('puts a relation that opens the formula into a literal run', () => {
      expect(formulaOmml('=5')).toContain(
        '<m:r><m:rPr><m:lit/></m:rPr><m:t xml:space="preserve">=</m:t></m:r><m:r><m:t xml:space="preserve">5</m:t></m:r>',
      );
    });

    it('leaves an operator between operands in place', () => {
      expect(formulaOmml('a=b')).toContain('<m:t xml:space="preserve">a=b</m:t>');
      expect(formulaOmml('a=b')).not.toContain('m:lit');
    });

    it('fills an empty argument and drops invisible operators', () => {
      const omml = formulaOmml('{}^{2}x')!;
      expect(omml).not.toMatch(/<m:e\/>|<m:e><\/m:e>/);
      expect(omml).toContain('<m:e><m:r><m:t>\u200B</m:t></m:r></m:e>');
      expect(formulaOmml('\\sin x')).not.toMatch(/[\u2061-\u2064]/);
    });

    it('escapes <, > and & (mathml2omml writes them raw)', () => {
      for (const tex of ['x<1', 'x>1', 'a \\& b', '0<x<', '\\frac{1}{x}<2']) {
        const omml = formulaOmml(tex)!;
        expect(wellFormed(omml), omml).toBe(true);
      }
      expect(formulaOmml('x<1')).toContain('x&lt;1');
    });
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

  it('keeps a < or > inside a formula (the bank writes $k<1$ raw): the formula stays whole, no tag is guessed', () => {
    expect(richLines('$k<1$ 且 $k\\ne0$')).toEqual([
      [
        { kind: 'formula', tex: 'k<1' },
        { kind: 'text', text: ' 且 ', style: {} },
        { kind: 'formula', tex: 'k\\ne0' },
      ],
    ]);
    // A < and a later > in two formulas are not one tag swallowing the text between them.
    expect(richLines('<p>若 $a<b$ 且 $c>d$</p>')).toEqual([
      [
        { kind: 'text', text: '若 ', style: {} },
        { kind: 'formula', tex: 'a<b' },
        { kind: 'text', text: ' 且 ', style: {} },
        { kind: 'formula', tex: 'c>d' },
      ],
    ]);
    // Two lone $ in two paragraphs are no formula.
    expect(richLines('<p>$5</p><p>$6</p>')).toEqual([
      [
        { kind: 'text', text: '$', style: {} },
        { kind: 'text', text: '5', style: {} },
      ],
      [
        { kind: 'text', text: '$', style: {} },
        { kind: 'text', text: '6', style: {} },
      ],
    ]);
    // An entity-encoded formula reads the same.
    expect(richLines('$k&lt;1$')).toEqual([[{ kind: 'formula', tex: 'k<1' }]]);
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
        // The blank of question 3 ends in "=": LibreOffice once drew a missing-operand ¿ after it.
        if (PDFTOTEXT) {
          const { stdout } = await run(PDFTOTEXT, [path.join(dir, 'paper.pdf'), '-']);
          expect(stdout).toContain('计算');
          expect(stdout).not.toContain('¿');
        }
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
      const storage = createLocalFileStorage(dir);
      await storage.write('files/figures/a.png', Buffer.from('png-bytes'));
      await storage.write('files/secret.txt', Buffer.from('secret'));
      await storage.write('outside.png', Buffer.from('not served'));
      const load = storedImageLoader(storage, '/files/');
      expect((await load('/files/figures/a.png'))?.toString()).toBe('png-bytes');
      expect(await load('/files/secret.txt')).toBeNull();
      expect(await load('/files/../../etc/passwd.png')).toBeNull();
      expect(await load('/files/%2e%2e/%2e%2e/x.png')).toBeNull();
      expect(await load('https://elsewhere.example/files/figures/a.png')).toBeNull();
      expect(await load('/files/../outside.png')).toBeNull();
      expect(await load('/files/missing.png')).toBeNull();
      expect(await storedImageLoader(storage, 'https://cdn.example/')('/files/figures/a.png')).toBeNull();
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
