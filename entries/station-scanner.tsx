/**
 * The scanner the scanning workspace uses, composed from the scanner machine (src/machines) for both the
 * kiosk and the portal's /scan page: the scanner feature's hook and settings dialog over the scanner
 * machine, with the station's stored settings, the image pipeline in a Web Worker, and one source list
 * made of every driver this computer has:
 * - the simulated scanner (模拟扫描仪（演示）): draws the chosen homework's answer sheets for its
 *   students not yet scanned at 300 dpi, filled in, rotated, noisy, some upside down, with a blank page,
 *   a page of another homework and now and then a duplicate; for 按二维码识别 it draws the school's
 *   newest homework that is out for scanning;
 * - file import (从文件夹导入图片): the images a scanner saved to a folder, picked when the scan starts.
 * - first, the scanners of the local scanning service (Dynamic Web TWAIN, its library loaded lazily from
 *   our own bundle and its resources from /dwt-resources/, after the station is usable: when the browser
 *   is idle or 扫描设置 opens, at once only when the chosen scanner is a real one); when the service is
 *   missing the station says so and offers the installers instead of DWT's English dialog.
 * This module is itself loaded on first use (scanner-port.tsx).
 */
import { Toast } from '@douyinfe/semi-ui-19';
import { useEffect, useRef, useState } from 'react';
import { ScanSettingsDialog } from '../src/features/scan/scan-settings-dialog';
import { useScanner } from '../src/features/scan/use-scanner';
import type { ScanProblem, UseScannerPort } from '../src/features/scan-station/scan-station-services';
import { scannerMachine } from '../src/machines/scanner.machine';
import type { HttpClient } from '../src/shared/adapters/http-client';
import { createCompositeDriver, createOnDemandDriver } from '../src/shared/adapters/scanner/composite-driver';
import {
  createFileImportDriver,
  FILE_IMPORT_SOURCE_NAME,
  type SkippedFile,
} from '../src/shared/adapters/scanner/file-import-driver';
import { createDwtDriver, deferLoad } from '../src/shared/adapters/scanner/dwt-driver';
import { createImagePipeline } from '../src/shared/adapters/scanner/image-pipeline';
import { scannerActors, type ScannerDriver } from '../src/shared/adapters/scanner/scanner-driver';
import { createScannerSettingsStorage } from '../src/shared/adapters/scanner/scanner-settings-storage';
import {
  createSimulatedDriver,
  SIMULATED_SOURCE_NAME,
  type SimulatedDriverOptions,
} from '../src/shared/adapters/scanner/simulated-driver';
import { type AnswerSheetSpec, answerSheetSpecSchema } from '../src/shared/contract/answer-sheet';
import { homeworkPageSchema } from '../src/shared/contract/papers';
import { studentSheetSpecsSchema } from '../src/shared/contract/rehearse-sets';
import { clientConfigSchema } from '../src/shared/contract/system';
import { DriverError, type ScannedPage, type UnscannedStudents, unscannedStudentsSchema } from '../src/shared/contract/scan';

/** Sheets in the simulated feeder per scan, and the time between two transfers. */
export const SIMULATED_PAGES_PER_FEED = 10;
const SIMULATED_PAGE_INTERVAL_MS = 150;
/** Homework statuses a simulated 按二维码识别 scan may draw sheets of. */
const SCANNABLE = new Set(['assigned', 'scanning', 'marking']);

/**
 * What the simulated scanner draws for a homework: its sheet, and the students of its classes not yet
 * scanned, asked from the server at every feed (so any station, at any time, continues the class where
 * it stands) less those this station fed already and the server has yet to count; with now and then a
 * page of a student already scanned (a duplicate). When nobody is left the feeder is empty.
 */
function createSimulatedMaterial(http: HttpClient, getHomeworkId: () => number | null) {
  const specs = new Map<number, Promise<AnswerSheetSpec>>();
  const fed = new Map<number, Set<string>>();
  // The last answer per homework, so the feeder keeps feeding while the server is away.
  const lastLeft = new Map<number, UnscannedStudents>();
  const leftOf = async (homeworkId: number): Promise<UnscannedStudents> => {
    try {
      const left = await http.get(`/api/scan/homework/${homeworkId}/unscanned-students`, undefined, unscannedStudentsSchema);
      lastLeft.set(homeworkId, left);
      return left;
    } catch (error) {
      const known = lastLeft.get(homeworkId);
      if (known) return known;
      throw error;
    }
  };
  let feeds = 0;
  // Students' own sheets (a personalised re-practice set): none for an ordinary homework. With
  // ?simulatedAnswers=key in the page's address when the station starts (an end-to-end test closing the
  // re-practice loop), those sheets are answered with their key instead of at random.
  let keyAsked = false;
  const answerWithKey = () => (keyAsked ||= new URLSearchParams(window.location.search).get('simulatedAnswers') === 'key');
  answerWithKey();
  type OwnSheets = { specs: Map<string, AnswerSheetSpec>; keys?: Map<string, Map<number, string[]>> };
  const ownSpecs = new Map<number, Promise<OwnSheets>>();
  const ownSpecsOf = (homeworkId: number) => {
    let entry = ownSpecs.get(homeworkId);
    if (!entry) {
      const withKeys = answerWithKey();
      entry = http
        .get(
          `/api/homework/${homeworkId}/answer-sheet/student-specs`,
          withKeys ? { keys: '1' } : undefined,
          studentSheetSpecsSchema,
        )
        .then(({ sheets }) => ({
          specs: new Map(sheets.map((s) => [s.studentCode, s.spec])),
          keys: withKeys
            ? new Map(
                sheets.map((s) => [
                  s.studentCode,
                  new Map(Object.entries(s.keys ?? {}).map(([no, labels]) => [Number(no), labels])),
                ]),
              )
            : undefined,
        }));
      entry.catch(() => ownSpecs.delete(homeworkId));
      ownSpecs.set(homeworkId, entry);
    }
    return entry;
  };
  const specOf = (homeworkId: number) => {
    let entry = specs.get(homeworkId);
    if (!entry) {
      entry = http.get(`/api/homework/${homeworkId}/answer-sheet/spec`, undefined, answerSheetSpecSchema);
      entry.catch(() => specs.delete(homeworkId));
      specs.set(homeworkId, entry);
    }
    return entry;
  };
  // Found once per station, so the feeder keeps feeding while the server is away.
  let newest: Promise<number> | null = null;
  const newestScannable = (): Promise<number> => {
    newest ??= http.get('/api/homework', { page: 1, pageSize: 50 }, homeworkPageSchema).then((page) => {
      const found = page.list.find((h) => SCANNABLE.has(h.status));
      // -1035: "there is no image", as a scanning service with an empty feeder says.
      if (!found) throw new DriverError('acquisition', 'no homework to simulate', -1035);
      return found.id;
    });
    newest.catch(() => (newest = null));
    return newest;
  };
  return async (): Promise<SimulatedDriverOptions> => {
    const homeworkId = getHomeworkId() ?? (await newestScannable());
    const [spec, left, own] = await Promise.all([specOf(homeworkId), leftOf(homeworkId), ownSpecsOf(homeworkId)]);
    const mine = fed.get(homeworkId) ?? new Set<string>();
    fed.set(homeworkId, mine);
    // Fed by this station but not counted yet (being recognised, or sent to 异常处理): not again, unless
    // nobody else is left.
    const fresh = left.unscanned.filter((s) => !mine.has(s.code));
    const students = (fresh.length > 0 ? fresh : left.unscanned).slice(0, SIMULATED_PAGES_PER_FEED);
    if (students.length === 0) throw new DriverError('acquisition', 'every student is scanned', -1035);
    for (const s of students) mine.add(s.code);
    feeds += 1;
    return {
      homeworkId,
      spec,
      studentSpecs: own.specs,
      ...(own.keys ? { answerKeys: own.keys } : {}),
      students,
      wrap: false,
      duplicates: left.scanned,
      pageCount: SIMULATED_PAGES_PER_FEED,
      seed: (Date.now() % 100_000) + feeds,
      intervalMs: SIMULATED_PAGE_INTERVAL_MS,
    };
  };
}

/**
 * Asks for the scanned images or PDFs (one page per PDF page) when a file-import scan starts; rejects as
 * "scan cancelled" when the choice is cancelled.
 */
function pickImageFiles(): Promise<File[]> {
  return new Promise((resolve, reject) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.multiple = true;
    input.accept = 'image/*,application/pdf,.pdf';
    input.addEventListener('change', () => resolve(Array.from(input.files ?? [])));
    input.addEventListener('cancel', () => reject(new DriverError('acquisition', 'file choice cancelled', -1032)));
    input.click();
  });
}

const PROBLEM_STATES: Record<string, ScanProblem['kind']> = {
  feederJam: 'jam',
  doubleFeed: 'doubleFeed',
  serviceNotInstalled: 'noService',
  noSource: 'noScanner',
  sourceNotSelectable: 'other',
  acquisitionError: 'other',
};

const settingsStore = createScannerSettingsStorage();

/** Files shown by name in the skipped-files message; the rest are counted. */
const SKIPPED_NAMED = 5;

/** Tells the operator which chosen files the import leaves out, and why. */
function toastSkipped(skipped: SkippedFile[]) {
  const byReason = new Map<string, string[]>();
  for (const file of skipped) byReason.set(file.reason, [...(byReason.get(file.reason) ?? []), file.name]);
  const lines = [...byReason].map(([reason, names]) => {
    const named = names.slice(0, SKIPPED_NAMED).join('、');
    return `${named}${names.length > SKIPPED_NAMED ? ` 等 ${names.length} 个文件` : ''}：${reason}`;
  });
  Toast.warning({ content: `已跳过 ${skipped.length} 个文件。${lines.join('；')}`, duration: 8 });
}

/** The scanner hook of a station whose HTTP client is `http`. */
export function createStationScanner(http: HttpClient): UseScannerPort {
  // The homework the workspace scans for, read when a simulated scan starts.
  const current: { homeworkId: number | null; serviceMissing: boolean } = { homeworkId: null, serviceMissing: false };
  const nextSimulatedFeed = createSimulatedMaterial(http, () => current.homeworkId);
  const dwt = createDwtDriver({
    productKey: async () =>
      (await http.get('/api/config', undefined, { schema: clientConfigSchema, silent: true })).dwtProductKey,
    loadLibrary: () => import('dwt'),
  });
  const trackedDwt: ScannerDriver = {
    ...dwt,
    load: () =>
      dwt.load().then(
        (sources) => {
          current.serviceMissing = false;
          return sources;
        },
        (error: unknown) => {
          if (error instanceof DriverError && error.kind === 'serviceNotInstalled') current.serviceMissing = true;
          throw error;
        },
      ),
  };
  // The library loads at once only for a station whose chosen scanner is a real one; otherwise when the
  // browser is idle after the workspace shows, or when 扫描设置 opens, whichever comes first.
  const deferredDwt = deferLoad(trackedDwt, () => {
    const chosen = settingsStore.load().scannerName ?? null;
    return chosen !== null && chosen !== SIMULATED_SOURCE_NAME && chosen !== FILE_IMPORT_SOURCE_NAME;
  });
  const driver = createCompositeDriver([
    deferredDwt.driver,
    createOnDemandDriver(SIMULATED_SOURCE_NAME, async () => createSimulatedDriver(await nextSimulatedFeed())),
    createOnDemandDriver(FILE_IMPORT_SOURCE_NAME, async () => {
      const files = await pickImageFiles();
      return createFileImportDriver(() => files, { onSkipped: toastSkipped });
    }),
  ]);
  const pipeline = createImagePipeline();
  const machine = scannerMachine.provide({ actors: scannerActors(driver, pipeline) });

  return function useStationScanner(onPage, homeworkId) {
    useEffect(() => {
      current.homeworkId = homeworkId;
    }, [homeworkId]);
    // Each page goes from the machine's emitPage straight to the workspace's latest onPage.
    const onPageRef = useRef(onPage);
    useEffect(() => {
      onPageRef.current = onPage;
    }, [onPage]);
    const [provided] = useState(() =>
      machine.provide({ actions: { emitPage: (_, page: ScannedPage) => onPageRef.current(page) } }),
    );
    const scanner = useScanner(provided, settingsStore);
    const state = typeof scanner.snapshot.value === 'string' ? scanner.snapshot.value : Object.keys(scanner.snapshot.value)[0]!;

    // Fetch the scanning library once the station is idle; when it is in, list its scanners (a reload
    // of the source list, as soon as no scan is running).
    const [libraryLoads, setLibraryLoads] = useState(0);
    useEffect(() => deferredDwt.onLoaded(() => setLibraryLoads((n) => n + 1)), []);
    useEffect(() => {
      if (typeof window.requestIdleCallback === 'function') {
        const id = window.requestIdleCallback(() => deferredDwt.prefetch(), { timeout: 5000 });
        return () => window.cancelIdleCallback(id);
      }
      const id = window.setTimeout(() => deferredDwt.prefetch(), 2000);
      return () => window.clearTimeout(id);
    }, []);
    const listedLoads = useRef(0);
    const { reload, saveSettings, settings, scanners, busy } = scanner;
    useEffect(() => {
      if (libraryLoads > listedLoads.current && !busy && state !== 'loading') {
        listedLoads.current = libraryLoads;
        reload();
      }
    }, [libraryLoads, busy, state, reload]);
    // The chosen scanner is remembered by name: when the list changes (the library's scanners come
    // first), its index follows.
    useEffect(() => {
      const name = settings.scannerName ?? null;
      const at = name === null ? -1 : scanners.findIndex((option) => option.text === name);
      if (at >= 0 && at !== settings.scannerIndex) saveSettings({ ...settings, scannerIndex: at });
    }, [scanners, settings, saveSettings]);
    const problemKind = PROBLEM_STATES[state];
    const chosen = scanner.settings.scannerName ?? null;
    return {
      status:
        state === 'loading' ? 'loading' : state === 'serviceNotInstalled' ? 'unavailable' : scanner.busy ? 'scanning' : 'ready',
      problem: problemKind && scanner.error ? { kind: problemKind, message: scanner.error } : null,
      simulated: chosen === SIMULATED_SOURCE_NAME,
      // Never chosen for the operator: on a station whose real scanner lists late, a simulated scan would
      // put demo pages into real homework.
      scannerChosen: chosen !== null || scanner.settings.scannerIndex !== null,
      serviceMissing: state !== 'loading' && current.serviceMissing,
      scan: scanner.requestScan,
      stop: scanner.cancelScan,
      renderSettings: ({ visible, onClose }) => {
        // Opening 扫描设置 is the moment the operator may want a real scanner.
        if (visible) deferredDwt.prefetch();
        return (
          <ScanSettingsDialog
            visible={visible}
            scanners={scanner.scanners}
            settings={scanner.settings}
            onSave={(settings) => {
              scanner.saveSettings(settings);
              onClose();
            }}
          />
        );
      },
    };
  };
}
