/**
 * The scanner the scanning workspace uses, composed from the scanner machine (src/machines) for both the
 * kiosk and the portal's /scan page, over a scanner driver and the image pipeline. Until the scanning
 * service driver and the scanner feature's settings dialog are composed here, the driver is a simulated
 * feeder of numbered demo answer sheets, and the settings dialog below keeps the spec's choices.
 */
import { Button, Modal, Radio, RadioGroup, Select } from '@douyinfe/semi-ui-19';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import type { ScannerPort, ScanProblem, UseScannerPort } from '../src/features/scan-station/scan-station-services';
import { scannerMachine, scannerOptions } from '../src/machines/scanner.machine';
import type { ImagePipeline } from '../src/shared/adapters/scanner/image-pipeline';
import { scannerActors, type ScannerDriver } from '../src/shared/adapters/scanner/scanner-driver';
import { getLocalItem, setLocalItem } from '../src/shared/adapters/local-storage';
import {
  DEFAULT_SCANNER_SETTINGS,
  PAPER_SIZE_OPTIONS,
  SCAN_JPEG_QUALITY,
  scannerSettingsSchema,
  type ScannedPage,
  type ScannerSettings,
} from '../src/shared/contract/scan';
import { scannedPageFileName, uuidV4 } from '../src/shared/lib/scan-image';
import { useMediaQuery } from '../src/shared/ui/use-media-query';

const SETTINGS_KEY = 'scannerSettings';
export const SIMULATED_SOURCE_NAME = '模拟扫描仪';
/** Sheets in the simulated feeder per scan, and the time between two transfers. */
export const SIMULATED_PAGES_PER_FEED = 10;
const SIMULATED_PAGE_INTERVAL_MS = 120;

function loadSettings(): ScannerSettings {
  const parsed = scannerSettingsSchema.safeParse(getLocalItem(SETTINGS_KEY));
  // The simulated feeder is the only source, so it is chosen from the start.
  return parsed.success ? parsed.data : { ...DEFAULT_SCANNER_SETTINGS, scannerIndex: 0, scannerName: SIMULATED_SOURCE_NAME };
}

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
 * The simulated pages are final JPEGs, so they pass through as they are. (The worker image pipeline,
 * createImagePipeline, dropped every page of this feeder in the built client; it is composed here once
 * it converts them.)
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

/** Spec §2: 80% below 550 px, 30% below 1400 px, otherwise 25%. */
function useDialogWidth(): string {
  const narrow = useMediaQuery('(max-width: 549px)');
  const medium = useMediaQuery('(max-width: 1399px)');
  return narrow ? '80%' : medium ? '30%' : '25%';
}

function SettingsDialog(props: {
  visible: boolean;
  onClose: () => void;
  sources: string[];
  settings: ScannerSettings;
  onSave: (settings: ScannerSettings) => void;
}) {
  const { visible, onClose, sources, settings, onSave } = props;
  const width = useDialogWidth();
  return (
    <Modal
      title="扫描设置"
      visible={visible}
      width={width}
      maskClosable={false}
      closeOnEsc={false}
      onCancel={onClose}
      footer={null}
    >
      {/* Mounted per opening, so the choices start from the saved settings each time. */}
      {visible ? <SettingsForm sources={sources} settings={settings} onSave={onSave} onClose={onClose} /> : null}
    </Modal>
  );
}

function SettingsForm(props: {
  sources: string[];
  settings: ScannerSettings;
  onSave: (settings: ScannerSettings) => void;
  onClose: () => void;
}) {
  const { sources, settings, onSave, onClose } = props;
  const [draft, setDraft] = useState(settings);
  return (
    <>
      <Select
        aria-label="扫描仪"
        placeholder={settings.scannerIndex === null ? '请选择扫描仪' : '请重新选择扫描仪'}
        style={{ width: '100%', marginBottom: 16 }}
        value={draft.scannerIndex ?? undefined}
        optionList={scannerOptions(sources).map((option) => ({ value: option.id, label: option.text }))}
        onChange={(value) => setDraft({ ...draft, scannerIndex: Number(value), scannerName: sources[Number(value)] ?? null })}
      />
      <RadioGroup
        aria-label="纸张大小"
        value={draft.paperSize}
        onChange={(event) => setDraft({ ...draft, paperSize: event.target.value })}
        style={{ marginBottom: 16 }}
      >
        {PAPER_SIZE_OPTIONS.map((option) => (
          <Radio key={option.code} value={option.code}>
            {option.label}
          </Radio>
        ))}
      </RadioGroup>
      <div>试卷是否分配给学科老师</div>
      <RadioGroup
        aria-label="试卷是否分配给学科老师"
        value={draft.scanSubject ? 1 : 0}
        onChange={(event) => setDraft({ ...draft, scanSubject: event.target.value === 1 })}
      >
        <Radio value={1}>是</Radio>
        <Radio value={0}>否</Radio>
      </RadioGroup>
      <div style={{ textAlign: 'right', marginTop: 24 }}>
        <Button
          theme="solid"
          onClick={() => {
            onSave(draft);
            onClose();
          }}
        >
          保存
        </Button>
      </div>
    </>
  );
}

export const useStationScanner: UseScannerPort = (onPage) => {
  // Pages leave the machine through an event target, so the machine never holds a stale onPage.
  const [pages] = useState(() => new EventTarget());
  useEffect(() => {
    const listener = (event: Event) => onPage((event as CustomEvent<ScannedPage>).detail);
    pages.addEventListener('page', listener);
    return () => pages.removeEventListener('page', listener);
  }, [pages, onPage]);
  const actor = useActorRef(
    simulatedScanner.provide({
      actions: { emitPage: (_, page: ScannedPage) => void pages.dispatchEvent(new CustomEvent('page', { detail: page })) },
    }),
    { input: { settings: loadSettings() } },
  );
  const view = useSelector(
    actor,
    (snapshot) => {
      const state = typeof snapshot.value === 'string' ? snapshot.value : Object.keys(snapshot.value)[0]!;
      return {
        state,
        busy: snapshot.hasTag('busy'),
        lastError: snapshot.context.lastError,
        sources: snapshot.context.sources,
        settings: snapshot.context.settings,
      };
    },
    (a, b) =>
      a.state === b.state &&
      a.busy === b.busy &&
      a.lastError === b.lastError &&
      a.sources === b.sources &&
      a.settings === b.settings,
  );

  const problemKind = PROBLEM_STATES[view.state];
  const port: ScannerPort = {
    status:
      view.state === 'loading'
        ? 'loading'
        : view.state === 'serviceNotInstalled'
          ? 'unavailable'
          : view.busy
            ? 'scanning'
            : 'ready',
    problem: problemKind && view.lastError ? { kind: problemKind, message: view.lastError } : null,
    simulated: true,
    scan: () => actor.send({ type: 'scan.requested' }),
    renderSettings: ({ visible, onClose }) => (
      <SettingsDialog
        visible={visible}
        onClose={onClose}
        sources={view.sources}
        settings={view.settings}
        onSave={(settings) => {
          setLocalItem(SETTINGS_KEY, settings);
          actor.send({ type: 'settings.changed', settings });
        }}
      />
    ),
  };
  return port;
};
