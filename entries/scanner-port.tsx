/**
 * The scanner the scanning workspace uses, composed from the scanner machine (src/machines) for both the
 * kiosk and the portal's /scan page: the scanner feature's hook and settings dialog over the scanner
 * machine, with the station's stored settings. The driver is a simulated feeder of numbered demo pages
 * (see below for why it is not yet the template-drawing simulated driver or Dynamic Web TWAIN).
 */
import { useEffect, useState } from 'react';
import { ScanSettingsDialog } from '../src/features/scan/scan-settings-dialog';
import { useScanner } from '../src/features/scan/use-scanner';
import type { ScanProblem, UseScannerPort } from '../src/features/scan-station/scan-station-services';
import { scannerMachine } from '../src/machines/scanner.machine';
import type { ImagePipeline } from '../src/shared/adapters/scanner/image-pipeline';
import { scannerActors, type ScannerDriver } from '../src/shared/adapters/scanner/scanner-driver';
import { createScannerSettingsStorage } from '../src/shared/adapters/scanner/scanner-settings-storage';
import { SCAN_JPEG_QUALITY, type ScannedPage } from '../src/shared/contract/scan';
import { scannedPageFileName, uuidV4 } from '../src/shared/lib/scan-image';

export const SIMULATED_SOURCE_NAME = '模拟扫描仪';
/** Sheets in the simulated feeder per scan, and the time between two transfers. */
export const SIMULATED_PAGES_PER_FEED = 10;
const SIMULATED_PAGE_INTERVAL_MS = 120;

/** The simulated feeder's page: A4 at 150 dpi, already a JPEG. */
const SIMULATED_PAGE = { width: 1240, height: 1754 };

/** A demo answer-sheet page: a frame, a title, the feed and sheet numbers and filled bubbles. */
function drawSimulatedPage(feed: number, sheet: number): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = SIMULATED_PAGE.width;
  canvas.height = SIMULATED_PAGE.height;
  const context = canvas.getContext('2d')!;
  context.fillStyle = '#fff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.strokeStyle = '#333';
  context.lineWidth = 4;
  context.strokeRect(60, 60, canvas.width - 120, canvas.height - 120);
  context.fillStyle = '#111';
  context.font = '56px sans-serif';
  context.fillText('模拟答题卡', 120, 180);
  context.font = '40px sans-serif';
  context.fillText(`第 ${feed} 次进纸 · 第 ${sheet} 张`, 120, 260);
  for (let row = 0; row < 20; row += 1) {
    for (let option = 0; option < 4; option += 1) {
      const x = 160 + option * 120;
      const y = 360 + row * 60;
      context.strokeRect(x, y, 72, 40);
      if ((row + sheet + feed) % 4 === option) context.fillRect(x, y, 72, 40);
    }
  }
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('JPEG encoding failed'))), 'image/jpeg', SCAN_JPEG_QUALITY),
  );
}

/**
 * A feeder with SIMULATED_PAGES_PER_FEED sheets in it: each acquisition transfers them one by one as
 * JPEG files, as a scanning service exporting JPEG would, and then finishes.
 */
function createSimulatedFeeder(): ScannerDriver {
  let feeds = 0;
  return {
    load: async () => [SIMULATED_SOURCE_NAME],
    select: async () => undefined,
    configure: async () => undefined,
    acquire(onImage, onDone) {
      let stopped = false;
      feeds += 1;
      const feed = feeds;
      void (async () => {
        for (let sheet = 1; sheet <= SIMULATED_PAGES_PER_FEED; sheet += 1) {
          await new Promise((resolve) => setTimeout(resolve, SIMULATED_PAGE_INTERVAL_MS));
          if (stopped) return;
          onImage({ kind: 'encoded', blob: await drawSimulatedPage(feed, sheet), bitDepth: 24 });
        }
        if (!stopped) onDone();
      })();
      return () => {
        stopped = true;
      };
    },
    close: async () => undefined,
  };
}

/**
 * The simulated pages are final JPEGs, so they pass through as they are. Why not the scanner feature's
 * simulated driver and worker pipeline yet: that driver draws the chosen homework's answer-sheet template
 * for its students (nothing to draw for 按二维码识别), and the worker pipeline dropped every page of
 * this feeder in the built client when tried.
 */
const passThrough: Pick<ImagePipeline, 'transform'> = {
  async transform(raw, options) {
    if (raw.kind !== 'encoded') throw new Error('the simulated feeder hands over JPEG files');
    const imageId = uuidV4((bytes) => crypto.getRandomValues(bytes));
    return {
      imageId,
      fileName: scannedPageFileName(imageId),
      blob: raw.blob,
      scanSubject: options.scanSubject,
      width: SIMULATED_PAGE.width,
      height: SIMULATED_PAGE.height,
      sequence: options.sequence,
    };
  },
};

const simulatedScanner = scannerMachine.provide({ actors: scannerActors(createSimulatedFeeder(), passThrough) });

const PROBLEM_STATES: Record<string, ScanProblem['kind']> = {
  feederJam: 'jam',
  doubleFeed: 'doubleFeed',
  serviceNotInstalled: 'noService',
  noSource: 'noScanner',
  sourceNotSelectable: 'other',
  acquisitionError: 'other',
};

const settingsStore = createScannerSettingsStorage();

export const useStationScanner: UseScannerPort = (onPage) => {
  // Pages leave the machine through an event target, so the machine never holds a stale onPage.
  const [pages] = useState(() => new EventTarget());
  useEffect(() => {
    const listener = (event: Event) => onPage((event as CustomEvent<ScannedPage>).detail);
    pages.addEventListener('page', listener);
    return () => pages.removeEventListener('page', listener);
  }, [pages, onPage]);
  const [machine] = useState(() =>
    simulatedScanner.provide({
      actions: { emitPage: (_, page: ScannedPage) => void pages.dispatchEvent(new CustomEvent('page', { detail: page })) },
    }),
  );
  const scanner = useScanner(machine, settingsStore);
  const state = typeof scanner.snapshot.value === 'string' ? scanner.snapshot.value : Object.keys(scanner.snapshot.value)[0]!;
  const problemKind = PROBLEM_STATES[state];
  return {
    status:
      state === 'loading' ? 'loading' : state === 'serviceNotInstalled' ? 'unavailable' : scanner.busy ? 'scanning' : 'ready',
    problem: problemKind && scanner.error ? { kind: problemKind, message: scanner.error } : null,
    simulated: true,
    scan: scanner.requestScan,
    renderSettings: ({ visible, onClose }) => (
      <ScanSettingsDialog
        visible={visible}
        scanners={scanner.scanners}
        settings={scanner.settings}
        onSave={(settings) => {
          scanner.saveSettings(settings);
          onClose();
        }}
      />
    ),
  };
};
