/**
 * The scanner driver over Dynamic Web TWAIN (the `dwt` package and its local scanning service). Loads
 * the library lazily, points its resources at our server (`/dwt-resources/`), lists sources, selects and
 * opens one, applies the scan configuration (no UI, feeder, auto-scan, duplex, auto deskew, RGB, 300 dpi,
 * paper size), acquires, and after every transfer hands the image over as a lossless PNG (the pipeline
 * makes the JPEG). DWT's image buffer is emptied when the source closes (removing single images would
 * shift the indices of transfers still being exported).
 * When the library or the local service is missing it throws DriverError 'serviceNotInstalled', and it
 * replaces DWT's own (English) install dialog so the station shows our Chinese guidance instead.
 * Written against DWT's documented API through the minimal interface below, so the project builds
 * without the package; the entry passes `loadLibrary: () => import('dwt')` once it is installed.
 */
import { DriverError, DWT_ERROR_CODES, DWT_RESOURCES_PATH, type ScanSourceConfig } from '../../contract/scan';
import type { ScannerDriver } from './scanner-driver';

const WEB_TWAIN_ID = 'smart-homework-scanner';
const DEFAULT_LOAD_TIMEOUT_MS = 8000;
/** EnumDWT_PixelType.TWPT_RGB */
const TWPT_RGB = 2;
/** EnumDWT_ImageType.IT_PNG */
const IT_PNG = 3;

/** The part of a DWT WebTwain object this driver uses. */
export interface DwtWebTwain {
  ErrorCode: number;
  ErrorString: string;
  IfShowUI: boolean;
  IfFeederEnabled: boolean;
  IfAutoFeed: boolean;
  IfAutoScan: boolean;
  IfDuplexEnabled: boolean;
  IfAutomaticDeskew: boolean;
  PixelType: number;
  Resolution: number;
  PageSize: number;
  CurrentImageIndexInBuffer: number;
  GetSourceNames(): string[];
  SelectSourceByIndexAsync(index: number): Promise<boolean>;
  OpenSourceAsync(): Promise<boolean>;
  CloseSourceAsync(): Promise<boolean>;
  AcquireImageAsync(config?: object): Promise<boolean>;
  CancelAllPendingTransfers?(): boolean;
  RegisterEvent(name: 'OnPostTransfer', listener: () => void): boolean;
  UnregisterEvent(name: 'OnPostTransfer', listener: () => void): boolean;
  GetImageBitDepth(index: number): number;
  ConvertToBlob(
    indices: number[],
    type: number,
    onSuccess: (blob: Blob) => void,
    onFailure: (code: number, message: string) => void,
  ): void;
  RemoveAllImages(): boolean;
}

/** The part of the `Dynamsoft` namespace this driver uses. */
export interface DwtNamespace {
  DWT: {
    ResourcesPath: string;
    ProductKey: string;
    AutoLoad?: boolean;
    OnWebTwainNotFound?: () => void;
    CreateDWTObjectEx(
      options: { WebTwainId: string },
      onSuccess: (dwt: DwtWebTwain) => void,
      onFailure: (error: { code?: number; message?: string }) => void,
    ): void;
  };
  OnWebTwainNotFoundOnWindowsCallback?: () => void;
  OnWebTwainNotFoundOnMacCallback?: () => void;
  OnWebTwainNotFoundOnLinuxCallback?: () => void;
}

export type DwtDriverOptions = {
  /** The product key from the client configuration (GET /api/config), or how to get it. */
  productKey: string | (() => Promise<string>);
  /** How long the local scanning service may take to answer before it counts as missing (default 8 s). */
  loadTimeoutMs?: number;
  resourcesPath?: string;
  /** Loads the library; by default a runtime `import('dwt')` that fails (→ serviceNotInstalled) when absent. */
  loadLibrary?: () => Promise<unknown>;
};

function codeOf(error: unknown, dwt: DwtWebTwain | null): number | null {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === 'number' && code !== 0) return code;
  return dwt && dwt.ErrorCode !== 0 ? dwt.ErrorCode : null;
}

const importDwt = (): Promise<unknown> => {
  // A variable specifier keeps bundlers from requiring the package at build time.
  const specifier = 'dwt';
  return import(/* @vite-ignore */ specifier);
};

export function createDwtDriver(options: DwtDriverOptions): ScannerDriver {
  let dwt: DwtWebTwain | null = null;
  const notInstalled = (why: string) => new DriverError('serviceNotInstalled', why);

  const createObject = async (): Promise<DwtWebTwain> => {
    let namespace: DwtNamespace;
    const productKey = typeof options.productKey === 'string' ? options.productKey : await options.productKey().catch(() => '');
    try {
      const mod = (await (options.loadLibrary ?? importDwt)()) as { default?: DwtNamespace } & Partial<DwtNamespace>;
      namespace = (mod.default ?? mod) as DwtNamespace;
      if (!namespace?.DWT?.CreateDWTObjectEx) throw new Error('not the Dynamic Web TWAIN library');
    } catch (error) {
      throw notInstalled(`Dynamic Web TWAIN could not be loaded: ${String(error)}`);
    }
    return new Promise<DwtWebTwain>((resolve, reject) => {
      const missingService = () => reject(notInstalled('Dynamic Web TWAIN service not found'));
      // Our guidance replaces DWT's install dialog.
      namespace.DWT.OnWebTwainNotFound = missingService;
      namespace.OnWebTwainNotFoundOnWindowsCallback = missingService;
      namespace.OnWebTwainNotFoundOnMacCallback = missingService;
      namespace.OnWebTwainNotFoundOnLinuxCallback = missingService;
      namespace.DWT.AutoLoad = false;
      namespace.DWT.ResourcesPath = options.resourcesPath ?? DWT_RESOURCES_PATH;
      namespace.DWT.ProductKey = productKey;
      const timeout = setTimeout(missingService, options.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS);
      namespace.DWT.CreateDWTObjectEx(
        { WebTwainId: WEB_TWAIN_ID },
        (created) => {
          clearTimeout(timeout);
          resolve(created);
        },
        (error) => {
          clearTimeout(timeout);
          reject(new DriverError('serviceNotInstalled', error.message ?? 'CreateDWTObjectEx failed', error.code ?? null));
        },
      );
    });
  };

  const requireDwt = (): DwtWebTwain => {
    if (!dwt) throw new DriverError('acquisition', 'scanner not loaded');
    return dwt;
  };

  return {
    async load() {
      dwt ??= await createObject();
      return dwt.GetSourceNames();
    },
    async select(index) {
      const source = requireDwt();
      try {
        const selected = await source.SelectSourceByIndexAsync(index);
        if (selected === false) throw new Error(source.ErrorString);
        await source.OpenSourceAsync();
      } catch (error) {
        throw new DriverError('sourceNotSelectable', `source ${index} cannot be selected`, codeOf(error, source));
      }
    },
    async configure(config: ScanSourceConfig) {
      const source = requireDwt();
      source.IfShowUI = config.showUI;
      source.IfFeederEnabled = config.feeder;
      source.IfAutoFeed = config.autoScan;
      source.IfAutoScan = config.autoScan;
      source.IfDuplexEnabled = config.duplex;
      source.IfAutomaticDeskew = config.autoDeskew;
      source.PixelType = TWPT_RGB;
      source.Resolution = config.resolution;
      source.PageSize = config.paperSize;
    },
    acquire(onImage, onDone, onError) {
      const source = requireDwt();
      let stopped = false;
      let exports: Promise<void> = Promise.resolve();
      const onPostTransfer = () => {
        const index = source.CurrentImageIndexInBuffer;
        const bitDepth = source.GetImageBitDepth(index);
        exports = exports.then(
          () =>
            new Promise<void>((resolve) => {
              source.ConvertToBlob(
                [index],
                IT_PNG,
                (blob) => {
                  if (!stopped) onImage({ kind: 'encoded', blob, bitDepth });
                  resolve();
                },
                // Spec §8: a failed conversion is skipped.
                () => resolve(),
              );
            }),
        );
      };
      source.RegisterEvent('OnPostTransfer', onPostTransfer);
      source.AcquireImageAsync({ IfCloseSourceAfterAcquire: false }).then(
        () => exports.then(() => !stopped && onDone()),
        (error: unknown) => exports.then(() => !stopped && onError(codeOf(error, source) ?? DWT_ERROR_CODES.generalFailure)),
      );
      return () => {
        stopped = true;
        source.UnregisterEvent('OnPostTransfer', onPostTransfer);
        source.CancelAllPendingTransfers?.();
      };
    },
    async close() {
      if (!dwt) return;
      try {
        await dwt.CloseSourceAsync();
      } finally {
        dwt.RemoveAllImages();
      }
    },
  };
}

/**
 * Keeps the scanning library off the critical path of a station's first view. `driver.load()` answers
 * "no sources" at once unless `wantedNow()` (the station's chosen scanner is one of this driver's) or
 * the library has been started; `prefetch()` (called when the browser is idle, or when 扫描设置 opens)
 * loads it in the background and then tells `onLoaded` listeners, whose next `load()` gets that result
 * without loading twice. Later loads (a reload after installing the service) go to the driver again.
 */
export function deferLoad(
  driver: ScannerDriver,
  wantedNow: () => boolean,
): { driver: ScannerDriver; prefetch(): void; onLoaded(listener: () => void): () => void; started(): boolean } {
  let started = false;
  let prefetched: Promise<string[]> | null = null;
  const listeners = new Set<() => void>();
  return {
    driver: {
      ...driver,
      load() {
        if (prefetched) {
          const result = prefetched;
          prefetched = null;
          return result;
        }
        if (!started && !wantedNow()) return Promise.resolve([]);
        started = true;
        return driver.load();
      },
    },
    prefetch() {
      if (started) return;
      started = true;
      const result = driver.load();
      const settle = () => {
        prefetched = result;
        listeners.forEach((listener) => listener());
      };
      result.then(settle, settle);
    },
    onLoaded(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    started: () => started,
  };
}
