/**
 * The recognition engine as the rest of the server sees it: give it a scanned page (JPEG bytes) and a way
 * to find the answer-sheet template of the homework its QR names; get back what it read (PageReading)
 * and the cut-out images of the page's answer regions. The implementation runs in worker threads; this
 * file is the interface only, so services and tests can depend on it and fake it.
 */
import type { AnswerSheetTemplate, SheetQrPayload } from '../../../src/shared/contract/answer-sheet';
import type { PageReading } from '../../../src/shared/contract/recognition';

/**
 * The template to read a page against. Called once per page with the QR payload (null when the QR could
 * not be read: the caller may still know the homework, e.g. from the scan batch). Null: no template, the
 * page is read as far as possible without one (fiducials, QR) and reported with its problems.
 */
export type TemplateResolver = (qr: SheetQrPayload | null) => Promise<AnswerSheetTemplate | null>;

export type RegionImage = { questionNo: number; kind: 'blank' | 'subjective'; jpeg: Buffer };

export type RecognitionResult = {
  reading: PageReading;
  /** One JPEG per answer region of the template page, in template order (none without a template). */
  regions: RegionImage[];
};

export interface RecognitionEngine {
  recognize(image: Buffer, resolveTemplate: TemplateResolver): Promise<RecognitionResult>;
  /** Stops the worker threads; pending calls reject. */
  close(): Promise<void>;
}
