/**
 * Reads an image a question's rich text points at from the school's stored files (DATA_DIR/files,
 * served at IMAGE_BASE_URL), for the Word export. Only files inside that folder, with an image
 * extension and of a sane size, are read; any other address answers null (the document says [图]).
 */
import fs from 'node:fs/promises';
import path from 'node:path';

/** Largest stored image embedded in a document. */
export const MAX_STORED_IMAGE_BYTES = 5 * 1024 * 1024;
const IMAGE_EXTENSION = /\.(png|jpe?g|gif|webp|bmp)$/i;

export function storedImageLoader(filesDir: string, imageBaseUrl: string) {
  const root = path.resolve(filesDir);
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
    const file = path.resolve(root, pathname.slice(base.length));
    if (!file.startsWith(`${root}${path.sep}`)) return null;
    try {
      const stat = await fs.stat(file);
      if (!stat.isFile() || stat.size > MAX_STORED_IMAGE_BYTES) return null;
      return await fs.readFile(file);
    } catch {
      return null;
    }
  };
}
