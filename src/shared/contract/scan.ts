/**
 * Scanning (扫描): the scanner settings a station keeps, the scan constants of spec §3/§5/§9, what a
 * driver hands over per transferred image (RawImage) and what the pipeline makes of it (ScannedPage),
 * and the Chinese messages for scanner failures. Shared by the scanner machine, the drivers, the image
 * pipeline, the settings dialog and the upload queue.
 */
import { z } from 'zod';

/** Paper size codes of spec §3 (they are TWAIN's TWSS_* supported-size values). */
export const PAPER_SIZE_CODES = { A4: 1, A3: 11, B5: 2, B4: 6, '16k': 0 } as const;
export type PaperSizeName = keyof typeof PAPER_SIZE_CODES;

export const paperSizeCodeSchema = z.union([z.literal(1), z.literal(11), z.literal(2), z.literal(6), z.literal(0)]);
export type PaperSizeCode = z.infer<typeof paperSizeCodeSchema>;

/** The radio group of the settings dialog, in the spec's order. */
export const PAPER_SIZE_OPTIONS: readonly { code: PaperSizeCode; label: PaperSizeName }[] = [
  { code: 1, label: 'A4' },
  { code: 11, label: 'A3' },
  { code: 2, label: 'B5' },
  { code: 6, label: 'B4' },
  { code: 0, label: '16k' },
];

export const PAPER_SIZE_LABELS: Readonly<Record<PaperSizeCode, PaperSizeName>> = {
  1: 'A4',
  11: 'A3',
  2: 'B5',
  6: 'B4',
  0: '16k',
};

export const DEFAULT_PAPER_SIZE: PaperSizeCode = 1;
export const SCAN_RESOLUTION = 300;
export const DEFAULT_DUPLEX = true;
/** JPEG quality of a scanned page. */
export const SCAN_JPEG_QUALITY = 0.85;
/** Height of the scan preview container, px (spec §9). */
export const SCAN_PREVIEW_HEIGHT_PX = 400;

// The resize targets live in a module without zod, so that the image pipeline's worker does not carry it.
export { OTHER_RESIZE_TARGET, RESIZE_TARGETS, type PixelSize } from './scan-sizes';

/** What a station remembers (spec §3 "Scanner setting state"), persisted per station. */
export const scannerSettingsSchema = z.object({
  /** Index into the driver's source list; null until one is chosen. */
  scannerIndex: z.number().int().nonnegative().nullable(),
  /** The chosen source's name, to notice when the list changed under the stored index. */
  scannerName: z.string().nullable().optional(),
  paperSize: paperSizeCodeSchema,
  /** 试卷是否分配给学科老师: emitted with every page. */
  scanSubject: z.boolean(),
  duplex: z.boolean(),
});
export type ScannerSettings = z.infer<typeof scannerSettingsSchema>;

export const DEFAULT_SCANNER_SETTINGS: ScannerSettings = {
  scannerIndex: null,
  scannerName: null,
  paperSize: DEFAULT_PAPER_SIZE,
  scanSubject: false,
  duplex: DEFAULT_DUPLEX,
};

/** An entry of the scanner dropdown: the source's index and name. */
export type ScannerOption = { id: number; text: string };

/** How the source is configured before acquiring (spec §4 "Scanner flow", step 3). */
export type ScanSourceConfig = {
  showUI: false;
  feeder: true;
  autoScan: true;
  duplex: boolean;
  autoDeskew: true;
  pixelType: 'rgb';
  resolution: typeof SCAN_RESOLUTION;
  paperSize: PaperSizeCode;
};

export function scanSourceConfig(settings: Pick<ScannerSettings, 'duplex' | 'paperSize'>): ScanSourceConfig {
  return {
    showUI: false,
    feeder: true,
    autoScan: true,
    duplex: settings.duplex,
    autoDeskew: true,
    pixelType: 'rgb',
    resolution: SCAN_RESOLUTION,
    paperSize: settings.paperSize,
  };
}

/**
 * One transferred image as a driver hands it over, before the pipeline:
 * - `pixels`: raw rows. 1-bit rows are packed most significant bit first, each row padded to a whole
 *   byte, bit set = white (TWAIN's default "chocolate" flavour); 8-bit is grey; 24-bit RGB; 32-bit RGBA.
 * - `bitmap`: an already decoded image (a canvas snapshot, transferable to the worker).
 * - `encoded`: a PNG/JPEG/BMP file as the scanning service exported it; `bitDepth` is the scan's.
 */
export type RawImage =
  | { kind: 'pixels'; width: number; height: number; bitDepth: 1 | 8 | 24 | 32; data: Uint8Array | Uint8ClampedArray }
  | { kind: 'bitmap'; bitmap: ImageBitmap; bitDepth: number }
  | { kind: 'encoded'; blob: Blob; bitDepth: number };

/** A scanned page ready to queue for upload (spec §3 "Scanned page result"). */
export type ScannedPage = {
  /** A v4 UUID. */
  imageId: string;
  fileName: `${string}.jpg`;
  /** JPEG. */
  blob: Blob;
  scanSubject: boolean;
  width: number;
  height: number;
  /** 1-based order of transfer within one scan. */
  sequence: number;
};

/** Why the scanning component could not be used. */
export type DriverErrorKind = 'serviceNotInstalled' | 'sourceNotSelectable' | 'acquisition';

/** A driver failure with its kind and, when the scanning service gave one, its error code. */
export class DriverError extends Error {
  readonly kind: DriverErrorKind;
  readonly code: number | null;
  constructor(kind: DriverErrorKind, message: string, code: number | null = null) {
    super(message);
    this.name = 'DriverError';
    this.kind = kind;
    this.code = code;
  }
}

/** What the pipeline is asked to do with one transferred image. */
export type TransformInput = { image: RawImage; paperSize: PaperSizeCode; scanSubject: boolean; sequence: number };

export type AcquireEvent =
  { type: 'scan.transferred'; image: RawImage } | { type: 'scan.finished' } | { type: 'scan.failed'; code: number | null };

/** Where our server serves Dynamic Web TWAIN's resources and service installers (never a CDN). */
export const DWT_RESOURCES_PATH = '/dwt-resources/';

/** The scanning service installers a station downloads from our server, by operating system. */
export const SCAN_SERVICE_INSTALLERS = [
  { os: 'windows', label: 'Windows', href: `${DWT_RESOURCES_PATH}dist/DynamicWebTWAINServiceSetup.msi` },
  { os: 'mac', label: 'macOS', href: `${DWT_RESOURCES_PATH}dist/DynamicWebTWAINServiceSetup.pkg` },
  { os: 'linux', label: 'Linux（deb）', href: `${DWT_RESOURCES_PATH}dist/DynamicWebTWAINServiceSetup.deb` },
  { os: 'linux', label: 'Linux（rpm）', href: `${DWT_RESOURCES_PATH}dist/DynamicWebTWAINServiceSetup.rpm` },
  { os: 'linux', label: 'Linux ARM64（deb）', href: `${DWT_RESOURCES_PATH}dist/DynamicWebTWAINServiceSetup-arm64.deb` },
] as const;
export type ScanServiceOs = (typeof SCAN_SERVICE_INSTALLERS)[number]['os'];

/** The operating system of a browser, from its user agent, to offer the right installer first. */
export function scanServiceOsOf(userAgent: string): ScanServiceOs {
  if (/Windows/i.test(userAgent)) return 'windows';
  if (/Mac OS X|Macintosh/i.test(userAgent)) return 'mac';
  return 'linux';
}

/** Spec §8: a failed scan asks to re-select the scanner. */
export const SCAN_FAILED_MESSAGE = '扫描失败，请重新选择扫描仪';
export const SERVICE_NOT_INSTALLED_MESSAGE = '未检测到扫描服务，请安装扫描仪服务程序并确认其已启动后，刷新页面重试';
export const NO_SCANNER_MESSAGE = '未检测到扫描仪，请连接扫描仪后重试';
export const CHOOSE_SCANNER_MESSAGE = '请先在扫描设置中选择扫描仪';

/** Dynamic Web TWAIN error codes the station explains (from DWT's error list; the rest read as a failed scan). */
export const DWT_ERROR_CODES = {
  generalFailure: -1001,
  outOfMemory: -1002,
  sourceNotFound: -1003,
  sourceBusy: -1004,
  capabilityUnsupported: -1006,
  feederJam: -1020,
  doubleFeed: -1021,
  deviceOffline: -1023,
  sourceManagerUnavailable: -1030,
  sequenceError: -1031,
  cancelled: -1032,
  noImage: -1035,
  serviceOutdated: -2207,
  connectionReset: -2208,
  serviceStopped: -2308,
} as const;

export const DWT_ERROR_MESSAGES: Readonly<Record<number, string>> = {
  [DWT_ERROR_CODES.generalFailure]: SCAN_FAILED_MESSAGE,
  [DWT_ERROR_CODES.outOfMemory]: '内存不足，请关闭其他程序后重新扫描',
  [DWT_ERROR_CODES.sourceNotFound]: '找不到所选扫描仪，请重新选择扫描仪',
  [DWT_ERROR_CODES.sourceBusy]: '扫描仪正被其他程序占用，请关闭其他扫描程序后重试',
  [DWT_ERROR_CODES.capabilityUnsupported]: '扫描仪不支持当前扫描设置，请更换纸张大小或扫描仪后重试',
  [DWT_ERROR_CODES.feederJam]: '卡纸了，请取出卡住的纸张后重新扫描',
  [DWT_ERROR_CODES.doubleFeed]: '检测到重张进纸，请整理纸张后重新扫描',
  [DWT_ERROR_CODES.deviceOffline]: '扫描仪未连接或已关机',
  [DWT_ERROR_CODES.sourceManagerUnavailable]: '扫描仪驱动不可用，请重新安装扫描仪驱动',
  [DWT_ERROR_CODES.sequenceError]: SCAN_FAILED_MESSAGE,
  [DWT_ERROR_CODES.cancelled]: '扫描已取消',
  [DWT_ERROR_CODES.noImage]: '未扫描到图像，请检查进纸器中是否放好试卷',
  [DWT_ERROR_CODES.serviceOutdated]: '扫描服务版本过旧，请重新安装扫描仪服务程序',
  [DWT_ERROR_CODES.connectionReset]: '与扫描服务的连接已断开，请刷新页面重试',
  [DWT_ERROR_CODES.serviceStopped]: '扫描服务已停止，请启动扫描服务后刷新页面',
};

/** The Chinese message for a scanner error code; an unknown code is a failed scan (spec §8). */
export function scanErrorMessage(code: number | null | undefined): string {
  return (code !== null && code !== undefined && DWT_ERROR_MESSAGES[code]) || SCAN_FAILED_MESSAGE;
}

/** A student as a (simulated) scan feed names them: on the sheet's header and in its QR code. */
export const feedStudentSchema = z.object({ name: z.string(), code: z.string() });
/**
 * GET /api/scan/homework/:id/unscanned-students: the students of the homework's classes whose sheets
 * have not been counted yet (absent ones left out), in class and 学号 order, and a few already scanned
 * (for a deliberate duplicate). The simulated scanner continues a class with these from any station.
 */
export const unscannedStudentsSchema = z.object({
  homeworkId: z.number().int().positive(),
  unscanned: z.array(feedStudentSchema),
  scanned: z.array(feedStudentSchema),
});
export type UnscannedStudents = z.infer<typeof unscannedStudentsSchema>;
/** How many already-scanned students the answer names at most. */
export const SCANNED_SAMPLE_SIZE = 20;
