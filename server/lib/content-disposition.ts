/**
 * `Content-Disposition: attachment` for a download named in Chinese: an ASCII fallback `filename` for
 * old clients and the real name as RFC 5987 `filename*`.
 */
export function attachment(fileName: string): string {
  const safe = fileName.replace(/[\\/:*?"<>|\r\n]+/g, '_');
  const dot = safe.lastIndexOf('.');
  const extension = dot > 0 ? safe.slice(dot) : '';
  const ascii = safe.replace(/[^\x20-\x7e]+/g, '_').replace(/^_+$/, '') || `download${extension}`;
  const fallback = /^_*\.[a-z0-9]+$/i.test(ascii) ? `download${extension}` : ascii;
  const encoded = encodeURIComponent(safe).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
