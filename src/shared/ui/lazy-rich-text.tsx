/**
 * The shared rich-text renderer (rich-text.tsx, the question bank's: DOMPurify allowlist + KaTeX formulas) for pages that
 * show question text only now and then (analysis, commentary, the student page): KaTeX and its fonts
 * load with the first question shown, not with the page, so the page's first view stays small. Until
 * then the text shows plain (tags dropped, formulas as written).
 */
import { lazy, Suspense } from 'react';

const RichText = lazy(() => import('./rich-text').then((module) => ({ default: module.RichText })));
const FormulaLine = lazy(() => import('./rich-text').then((module) => ({ default: module.FormulaLine })));

/** Rich text as one plain line (Excel cells, the fallback): tags dropped, formulas as written. */
export const plain = (text: string) =>
  text
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** Rich question text (HTML subset with $…$ formulas), sanitised and typeset. */
export function LazyRichText({ text, className }: { text: string; className?: string }) {
  return (
    <Suspense fallback={<span className={className}>{plain(text)}</span>}>
      <RichText text={text} className={className} />
    </Suspense>
  );
}

/** Rich text on one line (table cells): tags and line breaks dropped, formulas typeset. */
export function LazyFormulaLine({ text, className }: { text: string; className?: string }) {
  return (
    <Suspense fallback={<span className={className}>{plain(text)}</span>}>
      <FormulaLine text={text} className={className} />
    </Suspense>
  );
}
