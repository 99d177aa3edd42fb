import { describe, expect, it, vi } from 'vitest';
import { createCompositeDriver, createOnDemandDriver } from '../../../../src/shared/adapters/scanner/composite-driver';
import type { ScannerDriver } from '../../../../src/shared/adapters/scanner/scanner-driver';
import { DriverError, scanSourceConfig, type RawImage } from '../../../../src/shared/contract/scan';

const config = scanSourceConfig({ duplex: true, paperSize: 1 });
const image: RawImage = { kind: 'encoded', blob: new Blob(['x']), bitDepth: 24 };

/** A driver with the given sources that records calls and transfers one image per acquisition. */
function fakeDriver(sources: string[] | Error) {
  const calls: string[] = [];
  const driver: ScannerDriver = {
    load: async () => {
      calls.push('load');
      if (sources instanceof Error) throw sources;
      return sources;
    },
    select: async (index) => void calls.push(`select ${index}`),
    configure: async (c) => void calls.push(`configure ${c.paperSize}`),
    acquire: (onImage, onDone) => {
      calls.push('acquire');
      queueMicrotask(() => {
        onImage(image);
        onDone();
      });
      return () => calls.push('stop');
    },
    close: async () => void calls.push('close'),
  };
  return { driver, calls };
}

function acquireAll(driver: ScannerDriver): Promise<{ images: number; error: number | null }> {
  return new Promise((resolve) => {
    let images = 0;
    driver.acquire(
      () => (images += 1),
      () => resolve({ images, error: null }),
      (code) => resolve({ images, error: code }),
    );
  });
}

describe('composite driver', () => {
  it('lists the sources of every driver that loads, and routes calls to the owner of the chosen one', async () => {
    const twain = fakeDriver(['Fujitsu fi-7160', 'Canon DR-C225']);
    const offline = fakeDriver(new DriverError('serviceNotInstalled', 'no service'));
    const simulated = fakeDriver(['模拟扫描仪（演示）']);
    const composite = createCompositeDriver([twain.driver, offline.driver, simulated.driver]);
    expect(await composite.load()).toEqual(['Fujitsu fi-7160', 'Canon DR-C225', '模拟扫描仪（演示）']);

    await composite.select(2);
    await composite.configure(config);
    expect(await acquireAll(composite)).toEqual({ images: 1, error: null });
    await composite.close();
    expect(simulated.calls).toEqual(['load', 'select 0', 'configure 1', 'acquire', 'close']);

    await composite.select(1);
    expect(twain.calls).toEqual(['load', 'select 1']);
  });

  it('fails with the first driver’s reason when no driver has a source', async () => {
    const missing = new DriverError('serviceNotInstalled', 'no service');
    const composite = createCompositeDriver([fakeDriver(missing).driver, fakeDriver(new Error('other')).driver]);
    await expect(composite.load()).rejects.toBe(missing);
  });

  it('refuses a source index that is not listed', async () => {
    const composite = createCompositeDriver([fakeDriver(['A']).driver]);
    await composite.load();
    await expect(composite.select(3)).rejects.toMatchObject({ kind: 'sourceNotSelectable' });
  });
});

describe('on-demand driver', () => {
  it('prepares the real driver only when a scan starts, then selects, configures and acquires it', async () => {
    const real = fakeDriver(['real']);
    const prepare = vi.fn(async () => real.driver);
    const driver = createOnDemandDriver('模拟扫描仪（演示）', prepare);
    expect(await driver.load()).toEqual(['模拟扫描仪（演示）']);
    await driver.select(0);
    await driver.configure(config);
    expect(prepare).not.toHaveBeenCalled();
    expect(await acquireAll(driver)).toEqual({ images: 1, error: null });
    await driver.close();
    expect(real.calls).toEqual(['select 0', 'configure 1', 'acquire', 'close']);
  });

  it('reports a failed preparation as an acquisition error with its code', async () => {
    const driver = createOnDemandDriver('从文件夹导入图片', async () => {
      throw new DriverError('acquisition', 'cancelled', -1032);
    });
    await driver.select(0);
    await driver.configure(config);
    expect(await acquireAll(driver)).toEqual({ images: 0, error: -1032 });
  });
});
