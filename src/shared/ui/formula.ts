/**
 * KaTeX and its styles and fonts, loaded by rich-text.tsx with the first formula shown (about 78 KiB gz
 * of script that a page without formulas never fetches).
 */
import katex from 'katex';
import 'katex/dist/katex.min.css';

/**
 * The formula typeset by KaTeX, with MathML beside it for screen readers; a formula it cannot read is
 * shown as written (in red, with KaTeX's note).
 */
export function formulaHtml(tex: string): string {
  return katex.renderToString(tex, { throwOnError: false, output: 'htmlAndMathml', strict: 'ignore', trust: false });
}
