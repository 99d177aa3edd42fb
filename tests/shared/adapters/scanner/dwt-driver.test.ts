import { describe, expect, it, vi } from 'vitest';
import {
  createDwtDriver,
  deferLoad,
  type DwtNamespace,
  type DwtWebTwain,
} from '../../../../src/shared/adapters/scanner/dwt-driver';
import type { ScannerDriver } from '../../../../src/shared/adapters/scanner/scanner-driver';
import { DWT_RESOURCES_PATH, scanErrorMessage, scanSourceConfig, type RawImage } from '../../../../src/shared/contract/scan';

type Outcome = 'ok' | { fail: number };

/** A WebTwain object over a pretend scanner with `pages` in the feeder. */
function fakeWebTwain(pages: number, outcome: Outcome = 'ok') {
  const listeners = new Set<() => void>();
  const log: string[] = [];
  const twain = {
    ErrorCode: 0,
    ErrorString: '',
    IfShowUI: true,
    IfFeederEnabled: false,
    IfAutoFeed: false,
    IfAutoScan: false,
    IfDuplexEnabled: false,
    IfAutomaticDeskew: false,
    PixelType: 0,
    Resolution: 100,
    PageSize: 99,
    CurrentImageIndexInBuffer: -1,
    GetSourceNames: () => ['Fujitsu fi-7160', 'Canon DR-C225'],
    SelectSourceByIndexAsync: async (index: number) => {
      log.push(`select ${index}`);
      return index < 2;
    },
    OpenSourceAsync: async () => log.push('open') > 0,
    CloseSourceAsync: async () => log.push('close') > 0,
    AcquireImageAsync: async () => {
      for (let i = 0; i < pages; i += 1) {
        twain.CurrentImageIndexInBuffer = i;
        for (const listener of listeners) listener();
      }
      if (outcome !== 'ok') {
        twain.ErrorCode = outcome.fail;
        throw { code: outcome.fail, message: 'failed' };
      }
      return true;
    },
    RegisterEvent: (_: 'OnPostTransfer', listener: () => void) => listeners.add(listener) && true,
    UnregisterEvent: (_: 'OnPostTransfer', listener: () => void) => listeners.delete(listener),
    GetImageBitDepth: () => 24,
    ConvertToBlob: (indices: number[], _type: number, ok: (blob: Blob) => void, fail: (code: number, message: string) => void) =>
      // The third page cannot be converted (spec: skipped).
      indices[0] === 2 ? fail(-2000, 'conversion failed') : ok(new Blob([`page ${indices[0]}`], { type: 'image/png' })),
    RemoveAllImages: () => log.push('removeAll') > 0,
  };
  return { twain: twain as unknown as DwtWebTwain, log };
}

function fakeLibrary(twain: DwtWebTwain | 'serviceMissing') {
  const namespace: DwtNamespace = {
    DWT: {
      ResourcesPath: '',
      ProductKey: '',
      CreateDWTObjectEx: (_options, onSuccess) => {
        if (twain === 'serviceMissing') namespace.DWT.OnWebTwainNotFound?.();
        else onSuccess(twain);
      },
    },
  };
  return { namespace, load: async () => ({ default: namespace }) };
}

function acquire(driver: ReturnType<typeof createDwtDriver>) {
  return new Promise<{ images: RawImage[]; error: number | null }>((resolve) => {
    const images: RawImage[] = [];
    driver.acquire(
      (image) => images.push(image),
      () => resolve({ images, error: null }),
      (code) => resolve({ images, error: code }),
    );
  });
}

describe('Dynamic Web TWAIN driver', () => {
  it('points the library at our own resources and product key, lists sources and configures the source', async () => {
    const { twain, log } = fakeWebTwain(0);
    const library = fakeLibrary(twain);
    const driver = createDwtDriver({ productKey: async () => 'key-123', loadLibrary: library.load });
    expect(await driver.load()).toEqual(['Fujitsu fi-7160', 'Canon DR-C225']);
    expect(library.namespace.DWT).toMatchObject({ ResourcesPath: DWT_RESOURCES_PATH, ProductKey: 'key-123', AutoLoad: false });

    await driver.select(1);
    await driver.configure(scanSourceConfig({ duplex: false, paperSize: 11 }));
    expect(log).toEqual(['select 1', 'open']);
    expect(twain).toMatchObject({
      IfShowUI: false,
      IfFeederEnabled: true,
      IfAutoScan: true,
      IfDuplexEnabled: false,
      IfAutomaticDeskew: true,
      PixelType: 2,
      Resolution: 300,
      PageSize: 11,
    });
  });

  it('hands over every transferred page as PNG, skipping one that cannot be converted, and empties the buffer on close', async () => {
    const { twain, log } = fakeWebTwain(4);
    const driver = createDwtDriver({ productKey: '', loadLibrary: fakeLibrary(twain).load });
    await driver.load();
    await driver.select(0);
    const { images, error } = await acquire(driver);
    expect(error).toBeNull();
    expect(images).toHaveLength(3);
    expect(images.every((image) => image.kind === 'encoded' && image.bitDepth === 24)).toBe(true);
    await driver.close();
    expect(log.slice(-2)).toEqual(['close', 'removeAll']);
  });

  it('reports a feeder jam with its code, which the station explains in Chinese', async () => {
    const { twain } = fakeWebTwain(2, { fail: -1020 });
    const driver = createDwtDriver({ productKey: '', loadLibrary: fakeLibrary(twain).load });
    await driver.load();
    await driver.select(0);
    const { images, error } = await acquire(driver);
    expect(images).toHaveLength(2);
    expect(error).toBe(-1020);
    expect(scanErrorMessage(error)).toBe('卡纸了，请取出卡住的纸张后重新扫描');
    expect(scanErrorMessage(-1021)).toBe('检测到重张进纸，请整理纸张后重新扫描');
    expect(scanErrorMessage(-1023)).toBe('扫描仪未连接或已关机');
    expect(scanErrorMessage(-9999)).toBe('扫描失败，请重新选择扫描仪');
  });

  it('refuses a source that cannot be selected', async () => {
    const { twain } = fakeWebTwain(0);
    const driver = createDwtDriver({ productKey: '', loadLibrary: fakeLibrary(twain).load });
    await driver.load();
    await expect(driver.select(5)).rejects.toMatchObject({ kind: 'sourceNotSelectable' });
  });

  it('says the service is not installed when the library is missing, the service is missing or never answers', async () => {
    const missingLibrary = createDwtDriver({ productKey: '', loadLibrary: () => Promise.reject(new Error('no dwt')) });
    await expect(missingLibrary.load()).rejects.toMatchObject({ kind: 'serviceNotInstalled' });
    const missingService = createDwtDriver({ productKey: '', loadLibrary: fakeLibrary('serviceMissing').load });
    await expect(missingService.load()).rejects.toMatchObject({ kind: 'serviceNotInstalled' });
    const silent: DwtNamespace = { DWT: { ResourcesPath: '', ProductKey: '', CreateDWTObjectEx: () => undefined } };
    const silentService = createDwtDriver({ productKey: '', loadLibrary: async () => silent, loadTimeoutMs: 20 });
    await expect(silentService.load()).rejects.toMatchObject({ kind: 'serviceNotInstalled' });
  });
});

describe('deferLoad (the scanning library off the critical path)', () => {
  const driverWith = (load: () => Promise<string[]>) =>
    ({ load: vi.fn(load), select: vi.fn(), configure: vi.fn(), acquire: vi.fn(), close: vi.fn() }) as unknown as ScannerDriver & {
      load: ReturnType<typeof vi.fn>;
    };

  it('lists no scanners and loads nothing until prefetched, then hands over that one load', async () => {
    const inner = driverWith(async () => ['Fujitsu fi-7160']);
    const deferred = deferLoad(inner, () => false);
    expect(await deferred.driver.load()).toEqual([]);
    expect(inner.load).not.toHaveBeenCalled();

    const loaded = new Promise<void>((resolve) => deferred.onLoaded(resolve));
    deferred.prefetch();
    deferred.prefetch();
    await loaded;
    expect(inner.load).toHaveBeenCalledTimes(1);
    expect(await deferred.driver.load()).toEqual(['Fujitsu fi-7160']);
    expect(inner.load).toHaveBeenCalledTimes(1);
    // A later reload (the service was installed meanwhile) asks the driver again.
    expect(await deferred.driver.load()).toEqual(['Fujitsu fi-7160']);
    expect(inner.load).toHaveBeenCalledTimes(2);
  });

  it("loads at once when the chosen scanner is one of the driver's", async () => {
    const inner = driverWith(async () => ['Canon DR-C225']);
    const deferred = deferLoad(inner, () => true);
    expect(await deferred.driver.load()).toEqual(['Canon DR-C225']);
    expect(deferred.started()).toBe(true);
  });

  it('hands a failed background load (no scanning service) to the next load without waiting again', async () => {
    const inner = driverWith(async () => {
      throw new Error('service not found');
    });
    const deferred = deferLoad(inner, () => false);
    const loaded = new Promise<void>((resolve) => deferred.onLoaded(resolve));
    deferred.prefetch();
    await loaded;
    await expect(deferred.driver.load()).rejects.toThrow('service not found');
    expect(inner.load).toHaveBeenCalledTimes(1);
  });
});
