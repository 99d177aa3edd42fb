/**
 * The set maker's calls: preview a set (with the teacher's swaps), make it, download its PDFs. Validated
 * with the re-practice set contract; holds no state.
 */
import {
  type PdfProgress,
  pdfProgressSchema,
  type SetCreate,
  type SetCreated,
  setCreatedSchema,
  type SetOptions,
  type SetPreview,
  setPreviewSchema,
} from '../../shared/contract/rehearse-sets';
import type { HttpClient } from '../../shared/adapters/http-client';

export function previewSet(http: HttpClient, options: SetOptions): Promise<SetPreview> {
  return http.postJson('/api/rehearse/sets/preview', options, setPreviewSchema);
}

export function createSet(http: HttpClient, input: SetCreate): Promise<SetCreated> {
  return http.postJson('/api/rehearse/sets', input, setCreatedSchema);
}

/** Saves the set's PDF: one class (cover first), one student, or everyone; `with` a class set, both in one job. */
export function downloadSetPdf(
  http: HttpClient,
  setId: number,
  fileName: string,
  target: { classId?: number; studentId?: number; progress?: string; with?: number } = {},
): Promise<void> {
  return http.downloadGet(`/api/rehearse/sets/${setId}/pdf`, target, fileName);
}

/** A key for following one PDF's making (any 8-64 letters, digits, - or _; bound to the user on the server). */
export function newProgressKey(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

/** How far the PDF with this key is; null while the server has not started it (or on a failed read). */
export async function readPdfProgress(http: HttpClient, key: string): Promise<PdfProgress | null> {
  try {
    return await http.get(`/api/rehearse/sets/pdf-progress/${key}`, undefined, { schema: pdfProgressSchema, silent: true });
  } catch {
    return null;
  }
}
