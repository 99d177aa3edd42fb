import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createFileImportDriver,
  SKIP_REASONS,
  type SkippedFile,
  FILE_IMPORT_SOURCE_NAME,
  isPdfFile,
  type PdfRasterizer,
} from '../../../../src/shared/adapters/scanner/file-import-driver';
import {
  createImagePipeline,
  type PipelineRequest,
  type PipelineWorker,
} from '../../../../src/shared/adapters/scanner/image-pipeline';
import {
  createScannerSettingsStorage,
  SCANNER_SETTINGS_STORAGE_KEY,
} from '../../../../src/shared/adapters/scanner/scanner-settings-storage';
import { DEFAULT_SCANNER_SETTINGS, type RawImage } from '../../../../src/shared/contract/scan';

afterEach(() => localStorage.clear());

describe('scanner settings storage', () => {
  it('starts from A4, duplex on and no scanner when nothing (or garbage) is stored', () => {
    const storage = createScannerSettingsStorage();
    expect(storage.load()).toEqual(DEFAULT_SCANNER_SETTINGS);
    expect(DEFAULT_SCANNER_SETTINGS).toMatchObject({ scannerIndex: null, paperSize: 1, duplex: true });
    localStorage.setItem(SCANNER_SETTINGS_STORAGE_KEY, '{"paperSize": 99}');
    expect(storage.load()).toEqual(DEFAULT_SCANNER_SETTINGS);
  });

  it('keeps the settings of this station across loads', () => {
    const settings = {
      scannerIndex: 2,
      scannerName: 'Fujitsu fi-7160',
      paperSize: 11 as const,
      scanSubject: true,
      duplex: false,
    };
    expect(createScannerSettingsStorage().save(settings)).toBe(true);
    expect(createScannerSettingsStorage().load()).toEqual(settings);
  });
});

describe('file import driver', () => {
  const file = (name: string, type = 'image/jpeg') => new File(['x'], name, { type });

  it('hands over the chosen images in natural name order and skips other files', async () => {
    const files = [file('page10.jpg'), file('notes.txt', 'text/plain'), file('page2.png', 'image/png'), file('page1.jpg')];
    const driver = createFileImportDriver(() => files);
    expect(await driver.load()).toEqual([FILE_IMPORT_SOURCE_NAME]);
    await driver.select(0);
    const images: RawImage[] = [];
    await new Promise<void>((resolve, reject) => driver.acquire((image) => images.push(image), resolve, reject));
    expect(images.map((i) => (i.kind === 'encoded' ? (i.blob as File).name : ''))).toEqual([
      'page1.jpg',
      'page2.png',
      'page10.jpg',
    ]);
  });

  it('names the files it leaves out and why, before the first page', async () => {
    const skipped: SkippedFile[][] = [];
    const files = [file('page1.jpg'), file('notes.txt', 'text/plain'), new File([], 'empty.png', { type: 'image/png' })];
    const driver = createFileImportDriver(() => files, { onSkipped: (list) => skipped.push(list) });
    await driver.select(0);
    const images: RawImage[] = [];
    await new Promise<void>((resolve, reject) => driver.acquire((image) => images.push(image), resolve, reject));
    expect(images).toHaveLength(1);
    expect(skipped).toEqual([
      [
        { name: 'empty.png', reason: SKIP_REASONS.empty },
        { name: 'notes.txt', reason: SKIP_REASONS.notImage },
      ],
    ]);
  });

  it('reports "no image" when the folder has none', async () => {
    const driver = createFileImportDriver(() => [file('a.txt', 'text/plain')]);
    await driver.select(0);
    const code = await new Promise((resolve) =>
      driver.acquire(
        () => undefined,
        () => resolve('done'),
        resolve,
      ),
    );
    expect(code).toBe(-1035);
  });

  it('refuses a source it does not have', async () => {
    await expect(createFileImportDriver(() => []).select(1)).rejects.toMatchObject({ kind: 'sourceNotSelectable' });
  });
});

describe('file import driver: multi-page PDFs', () => {
  const file = (name: string, type: string) => new File(['x'], name, { type });
  const pdf = (name: string) => file(name, 'application/pdf');
  const label = (image: RawImage) =>
    image.kind === 'encoded' ? (image.blob as File).name : image.kind === 'bitmap' ? String(image.bitmap) : 'pixels';

  /** A rasteriser whose pages are encoded blobs named `<file>#<page>`; `pages` per file name. */
  function fakeRasterizer(pages: Record<string, number>) {
    const calls: string[] = [];
    const rasterize: PdfRasterizer = async function* (blob) {
      const name = (blob as File).name;
      calls.push(name);
      const count = pages[name];
      if (count === undefined) throw new Error('Invalid PDF structure');
      for (let n = 1; n <= count; n += 1) yield { kind: 'encoded', blob: new File(['p'], `${name}#${n}`), bitDepth: 24 };
    };
    return { rasterize, calls };
  }

  function acquireAll(driver: ReturnType<typeof createFileImportDriver>) {
    return new Promise<RawImage[]>((resolve, reject) => {
      const images: RawImage[] = [];
      driver.acquire(
        (image) => images.push(image),
        () => resolve(images),
        reject,
      );
    });
  }

  it('recognises PDFs by type or extension', () => {
    expect(isPdfFile(pdf('scan.pdf'))).toBe(true);
    expect(isPdfFile(file('SCAN0001.PDF', ''))).toBe(true);
    expect(isPdfFile(file('page.jpg', 'image/jpeg'))).toBe(false);
  });

  it('hands over each PDF page in page order, after the pages of earlier files in name order', async () => {
    const { rasterize, calls } = fakeRasterizer({ 'b.pdf': 3, 'a10.pdf': 2 });
    const files = [
      pdf('b.pdf'),
      file('c.png', 'image/png'),
      file('a.jpg', 'image/jpeg'),
      pdf('a10.pdf'),
      file('x.txt', 'text/plain'),
    ];
    const driver = createFileImportDriver(() => files, { rasterizePdf: rasterize });
    await driver.select(0);
    expect((await acquireAll(driver)).map(label)).toEqual([
      'a.jpg',
      'a10.pdf#1',
      'a10.pdf#2',
      'b.pdf#1',
      'b.pdf#2',
      'b.pdf#3',
      'c.png',
    ]);
    expect(calls).toEqual(['a10.pdf', 'b.pdf']);
  });

  it('counts an unreadable PDF as one failed page (the file itself, which the pipeline cannot decode) and goes on', async () => {
    const { rasterize } = fakeRasterizer({ 'b.pdf': 1 });
    const broken = pdf('a.pdf');
    const driver = createFileImportDriver(() => [pdf('b.pdf'), broken], { rasterizePdf: rasterize });
    await driver.select(0);
    const images = await acquireAll(driver);
    expect(images.map(label)).toEqual(['a.pdf', 'b.pdf#1']);
    expect(images[0]).toEqual({ kind: 'encoded', blob: broken, bitDepth: 24 });
  });

  it('renders the next page only when fewer than `pagesAhead` rendered pages wait for the pipeline', async () => {
    let rendered = 0;
    const bitmaps: { width: number; toString: () => string }[] = [];
    const rasterize: PdfRasterizer = async function* () {
      for (let n = 1; n <= 4; n += 1) {
        rendered += 1;
        const bitmap = { width: 2480, toString: () => `page ${n}` };
        bitmaps.push(bitmap);
        yield { kind: 'bitmap', bitmap: bitmap as unknown as ImageBitmap, bitDepth: 24 };
      }
    };
    const driver = createFileImportDriver(() => [pdf('a.pdf')], { rasterizePdf: rasterize, pagesAhead: 2 });
    await driver.select(0);
    const done = acquireAll(driver);
    await vi.waitFor(() => expect(rendered).toBe(2));
    // Page 3 waits while pages 1 and 2 do.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(rendered).toBe(2);
    // The pipeline takes page 1 (a transferred bitmap is detached: width 0).
    bitmaps[0]!.width = 0;
    await vi.waitFor(() => expect(rendered).toBe(3));
    for (const bitmap of bitmaps) bitmap.width = 0;
    await vi.waitFor(() => expect(rendered).toBe(4));
    expect((await done).map(label)).toEqual(['page 1', 'page 2', 'page 3', 'page 4']);
  });

  it('stops between pages when the scan is stopped, and releases the document', async () => {
    let released = false;
    let rendered = 0;
    const rasterize: PdfRasterizer = async function* () {
      try {
        for (let n = 1; n <= 10; n += 1) {
          rendered += 1;
          yield { kind: 'encoded', blob: new File(['p'], `a.pdf#${n}`), bitDepth: 24 };
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      } finally {
        released = true;
      }
    };
    const driver = createFileImportDriver(() => [pdf('a.pdf'), file('b.jpg', 'image/jpeg')], { rasterizePdf: rasterize });
    await driver.select(0);
    const images: RawImage[] = [];
    let finished = false;
    const stop = driver.acquire(
      (image) => {
        images.push(image);
        if (images.length === 2) stop();
      },
      () => (finished = true),
      () => (finished = true),
    );
    await vi.waitFor(() => expect(released).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(images.map(label)).toEqual(['a.pdf#1', 'a.pdf#2']);
    expect(rendered).toBeLessThanOrEqual(3);
    expect(finished).toBe(false);
  });
});

describe('image pipeline client', () => {
  function fakeWorker(answer: (request: PipelineRequest) => object) {
    const listeners: ((event: MessageEvent) => void)[] = [];
    const posted: { request: PipelineRequest; transfer: Transferable[] }[] = [];
    const worker = {
      postMessage: (request: PipelineRequest, transfer: Transferable[]) => {
        posted.push({ request, transfer });
        queueMicrotask(() => listeners.forEach((l) => l({ data: { id: request.id, ...answer(request) } } as MessageEvent)));
      },
      terminate: () => undefined,
      addEventListener: (type: string, listener: (event: MessageEvent) => void) => {
        if (type === 'message') listeners.push(listener);
      },
    } as unknown as PipelineWorker;
    return { worker, posted };
  }

  it('sends the image with its paper size and JPEG quality, and names the page by a fresh image id', async () => {
    const jpeg = new Blob(['jpeg'], { type: 'image/jpeg' });
    const { worker, posted } = fakeWorker(() => ({ ok: true, blob: jpeg, width: 2480, height: 3507 }));
    const ids = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];
    const pipeline = createImagePipeline({ createWorker: () => worker, newImageId: () => ids.shift()! });
    const data = new Uint8Array(4);
    const raw: RawImage = { kind: 'pixels', width: 8, height: 4, bitDepth: 1, data };
    const page = await pipeline.transform(raw, { paperSize: 1, scanSubject: true, sequence: 3 });
    expect(posted[0]!.request).toMatchObject({ raw, paperSize: 1, quality: 0.85 });
    // The pixel buffer is transferred, not copied.
    expect(posted[0]!.transfer).toEqual([data.buffer]);
    expect(page).toEqual({
      imageId: '11111111-1111-4111-8111-111111111111',
      fileName: '11111111-1111-4111-8111-111111111111.jpg',
      blob: jpeg,
      scanSubject: true,
      width: 2480,
      height: 3507,
      sequence: 3,
    });
    const second = await pipeline.transform(raw, { paperSize: 1, scanSubject: false, sequence: 4 });
    expect(second.fileName).toBe('22222222-2222-4222-8222-222222222222.jpg');
  });

  it('rejects when the worker could not convert the image, and when disposed', async () => {
    const { worker } = fakeWorker(() => ({ ok: false, message: 'decode failed' }));
    const pipeline = createImagePipeline({ createWorker: () => worker });
    const raw: RawImage = { kind: 'encoded', blob: new Blob(['x']), bitDepth: 24 };
    await expect(pipeline.transform(raw, { paperSize: 1, scanSubject: false, sequence: 1 })).rejects.toThrow('decode failed');
    const silent = createImagePipeline({
      createWorker: () =>
        ({ postMessage: () => undefined, terminate: () => undefined, addEventListener: () => undefined }) as never,
    });
    const pending = silent.transform(raw, { paperSize: 1, scanSubject: false, sequence: 1 });
    silent.dispose();
    await expect(pending).rejects.toThrow('disposed');
  });
});
