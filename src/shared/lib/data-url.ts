const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*?)(;base64)?,(.*)$/s;

/**
 * A data URL (`data:image/jpeg;base64,...`) as a File named `fileName`, typed by the URL's media type.
 * Null when the input is not a well-formed data URL, so callers can treat a failed conversion as
 * "nothing to do" (spec §8: a base64 conversion failure does nothing).
 */
export function dataUrlToFile(dataUrl: string, fileName: string): File | null {
  const match = DATA_URL.exec(dataUrl.trim());
  if (!match) return null;
  const [, mediaType = '', , base64, payload = ''] = match;
  try {
    const bytes = base64 ? decodeBase64(payload) : new TextEncoder().encode(decodeURIComponent(payload));
    return new File([bytes], fileName, { type: mediaType || 'text/plain' });
  } catch {
    return null;
  }
}

function decodeBase64(payload: string): Uint8Array<ArrayBuffer> {
  const compact = payload.replace(/\s/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) throw new Error('not base64');
  const binary = atob(compact);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
