/**
 * The fixed frame of an answer-sheet page that recognition needs before it knows the template: page
 * size, the four corner fiducials and the QR placement. Every template page of version 1 has the same
 * frame for its paper size (answer-sheet-layout's sheetFrame), so a scan can be located and its QR
 * read first, and the template looked up from what the QR says.
 */
import type {
  AnswerSheetPage,
  AnswerSheetTemplate,
  Fiducial,
  FiducialCorner,
  SheetQrPlacement,
} from '../../../src/shared/contract/answer-sheet';
import { PAGE_SIZE_MM, sheetFrame } from '../../../src/shared/lib/answer-sheet-layout';

export type PageFrame = {
  widthMm: number;
  heightMm: number;
  fiducials: Fiducial[];
  qr: SheetQrPlacement;
};

export const FIDUCIAL_CORNERS: readonly FiducialCorner[] = ['tl', 'tr', 'bl', 'br'];

/** The corner a corner becomes when the page is turned by 180 degrees. */
export const TURNED_CORNER: Readonly<Record<FiducialCorner, FiducialCorner>> = { tl: 'br', tr: 'bl', bl: 'tr', br: 'tl' };

/** The version-1 frame of a paper size (the layout's own `sheetFrame`). */
export function paperFrame(widthMm: number, heightMm: number): PageFrame {
  return { widthMm, heightMm, ...sheetFrame(widthMm, heightMm) };
}

/**
 * The frame a scan most likely has, from its shape alone: A4 portrait or A3 landscape, the two paper
 * sizes of the contract. The scan is taken to show the whole page.
 */
export function guessFrame(imageWidth: number, imageHeight: number): PageFrame {
  const { A4, A3 } = PAGE_SIZE_MM;
  return imageWidth > imageHeight ? paperFrame(A3.width, A3.height) : paperFrame(A4.width, A4.height);
}

/** The frame of a template page: its own fiducials and QR. */
export function templateFrame(template: AnswerSheetTemplate, page: AnswerSheetPage): PageFrame {
  return { widthMm: template.pageWidthMm, heightMm: template.pageHeightMm, fiducials: page.fiducials, qr: page.qr };
}
