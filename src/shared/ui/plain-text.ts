/**
 * Rich question text as one plain string, apart from rich-text.tsx (DOMPurify and the renderer) so that
 * what only measures or lists text does not load them.
 */
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', nbsp: '\u00a0', '#39': "'" };

/** Rich text to plain text: <br> and block ends become line breaks, other tags are dropped. */
export function plainText(rich: string): string {
  return rich
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|nbsp|#39);/g, (_, name: string) => ENTITIES[name] ?? '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
