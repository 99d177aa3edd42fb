/**
 * Reads an image a question's rich text points at from the school's stored files (the storage's
 * files/ folder, served at IMAGE_BASE_URL), for the Word export. Only files inside that folder, with an
 * image extension and of a sane size, are read; any other address answers null (the document says [图]).
 */
import { type FileStorage, isStorageKey, servedFileKey } from '../storage/file-storage';

/** Largest stored image embedded in a document. */
export const MAX_STORED_IMAGE_BYTES = 5 * 1024 * 1024;
const IMAGE_EXTENSION = /\.(png|jpe?g|gif|webp|bmp)$/i;

export function storedImageLoader(storage: FileStorage, imageBaseUrl: string) {
  return async (src: string): Promise<Buffer | null> => {
    // Only a path under the local image base (an absolute URL of another host is not fetched).
    if (!imageBaseUrl.startsWith('/')) return null;
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(src, 'http://local.invalid').pathname);
    } catch {
      return null;
    }
    const base = imageBaseUrl.endsWith('/') ? imageBaseUrl : `${imageBaseUrl}/`;
    if (!src.startsWith('/') || !pathname.startsWith(base) || !IMAGE_EXTENSION.test(pathname)) return null;
    const relative = pathname.slice(base.length);
    // Keys are plain relative paths: `..`, empty or odd segments never reach the storage.
    if (!isStorageKey(relative)) return null;
    try {
      const data = await storage.read(servedFileKey(relative));
      return data.length > MAX_STORED_IMAGE_BYTES ? null : data;
    } catch {
      return null;
    }
  };
}
