/**
 * Driver combinators. `createCompositeDriver` offers the sources of several drivers as one list (the
 * scanning service's scanners, then the simulated scanner, then file import), routing every call after
 * `select` to the driver that owns the chosen source. `createOnDemandDriver` is a one-source driver whose
 * real driver is prepared only when a scan starts (the simulated scanner fetches the homework it draws,
 * file import asks for the files), so listing sources costs nothing.
 */
import { DriverError } from '../../contract/scan';
import { singleSource, type ScannerDriver } from './scanner-driver';

export function createCompositeDriver(drivers: readonly ScannerDriver[]): ScannerDriver {
  let table: { driver: ScannerDriver; local: number }[] = [];
  let active: ScannerDriver | null = null;
  const requireActive = (): ScannerDriver => {
    if (!active) throw new DriverError('acquisition', 'no source selected', -1031);
    return active;
  };
  return {
    async load() {
      const results = await Promise.allSettled(drivers.map((driver) => driver.load()));
      const names: string[] = [];
      table = [];
      results.forEach((result, i) => {
        if (result.status !== 'fulfilled') return;
        result.value.forEach((name, local) => {
          names.push(name);
          table.push({ driver: drivers[i]!, local });
        });
      });
      // Nothing loaded at all: the first driver's failure (the scanning service) explains it best.
      const firstFailure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (names.length === 0 && firstFailure) throw firstFailure.reason;
      return names;
    },
    async select(index) {
      const entry = table[index];
      if (!entry) throw new DriverError('sourceNotSelectable', `no source ${index}`, -1003);
      if (active && active !== entry.driver) await active.close().catch(() => undefined);
      active = entry.driver;
      await entry.driver.select(entry.local);
    },
    configure: (config) => requireActive().configure(config),
    acquire(onImage, onDone, onError) {
      if (!active) {
        queueMicrotask(() => onError(-1031));
        return () => undefined;
      }
      return active.acquire(onImage, onDone, onError);
    },
    async close() {
      await active?.close();
    },
  };
}

/**
 * One source named `name`; `prepare` builds the real driver when a scan starts (and may reject with a
 * DriverError or an Error, reported as an acquisition failure with `code` when it carries one).
 */
export function createOnDemandDriver(name: string, prepare: () => Promise<ScannerDriver>): ScannerDriver {
  const source = singleSource(name);
  let current: ScannerDriver | null = null;
  return {
    load: source.load,
    select: source.select,
    configure: source.configure,
    acquire(onImage, onDone, onError) {
      let stop: (() => void) | null = null;
      let stopped = false;
      void (async () => {
        const config = source.config();
        if (!config) throw new DriverError('acquisition', 'source not configured', -1031);
        const driver = await prepare();
        current = driver;
        await driver.select(0);
        await driver.configure(config);
        if (!stopped) stop = driver.acquire(onImage, onDone, onError);
      })().catch((error: unknown) => {
        if (!stopped) onError(error instanceof DriverError ? error.code : null);
      });
      return () => {
        stopped = true;
        stop?.();
      };
    },
    async close() {
      await current?.close();
      current = null;
      source.reset();
    },
  };
}
