/**
 * `Content-Disposition: attachment` for a download named in Chinese: the real name as RFC 5987
 * `filename*`, and a plain `filename` for clients that only read that one (the name itself when it is
 * printable ASCII, otherwise `download` plus the extension).
 */
export function attachment(fileName: string): string {
  const safe = fileName.replace(/[\\/:*?"<>|\r\n]+/g, '_');
  const dot = safe.lastIndexOf('.');
  const extension = dot > 0 ? safe.slice(dot) : '';
  const fallback = /^[\x20-\x7e]+$/.test(safe) ? safe : `download${extension}`;
  const encoded = encodeURIComponent(safe).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
