/**
 * The set maker's calls: preview a set (with the teacher's swaps), make it, download its PDFs. Validated
 * with the re-practice set contract; holds no state.
 */
import {
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

/** Saves the set's PDF: one class (cover first), one student, or everyone. */
export function downloadSetPdf(
  http: HttpClient,
  setId: number,
  fileName: string,
  target: { classId?: number; studentId?: number } = {},
): Promise<void> {
  return http.downloadGet(`/api/rehearse/sets/${setId}/pdf`, target, fileName);
}
