/**
 * Question text as a reader sees it. The bank stores stems, options, answers and analyses as rich text:
 * a small HTML subset (paragraphs, line breaks, bold/italic/underline, sub/superscripts, lists, tables
 * and images) with TeX formulas between $…$. `RichText` sanitises the HTML with DOMPurify (an allowlist:
 * no scripts, styles, handlers or foreign images) and typesets each formula with KaTeX (formula.ts), which
 * with its styles and fonts loads with the first text that has a formula: until it arrives, a moment on
 * the first such text of a visit, the formulas show as written. `plainText` is the one-line form for lists
 * and titles.
 */
import DOMPurify from 'dompurify';
import { useEffect, useMemo, useRef, useState } from 'react';
import { fillQuestionImages, isQuestionImage, useQuestionImageLoader } from './question-images';
import styles from './rich-text.module.css';

import { plainText } from './plain-text';

export { plainText };

/** Splits text into plain runs and $...$ formulas (a lone $ stays text). */
export function splitFormulas(text: string): { tex: boolean; text: string }[] {
  const parts: { tex: boolean; text: string }[] = [];
  const pattern = /\$([^$]+)\$/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) parts.push({ tex: false, text: text.slice(last, match.index) });
    parts.push({ tex: true, text: match[1] ?? '' });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ tex: false, text: text.slice(last) });
  return parts;
}

const ALLOWED_TAGS = [
  'p',
  'div',
  'span',
  'br',
  'b',
  'strong',
  'i',
  'em',
  'u',
  's',
  'sub',
  'sup',
  'ul',
  'ol',
  'li',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'img',
];
const ALLOWED_ATTR = ['src', 'alt', 'width', 'height', 'colspan', 'rowspan'];
const INLINE_IMAGE = /^data:image\/(png|jpe?g|gif|webp);base64,/i;

/** Images of the bank are our own files (same origin, as the browser resolves them) or inline data. */
export function isSafeImageSrc(src: string): boolean {
  if (INLINE_IMAGE.test(src)) return true;
  try {
    return new URL(src, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

let instance: ReturnType<typeof DOMPurify> | null = null;
/** Our own DOMPurify, so the image rule does not leak into any other use of the library. */
function purifier() {
  if (!instance) {
    instance = DOMPurify(window);
    instance.addHook('uponSanitizeAttribute', (node, data) => {
      if (node.nodeName === 'IMG' && data.attrName === 'src' && !isSafeImageSrc(data.attrValue)) data.keepAttr = false;
    });
  }
  return instance;
}

type Typeset = (tex: string) => string;

let typeset: Typeset | null = null;
let loading: Promise<Typeset> | null = null;

/** KaTeX's typesetter, fetched once (formula.ts); a failed fetch is tried again on the next call. */
export function loadFormulas(): Promise<Typeset> {
  loading ??= import('./formula').then(
    (module) => (typeset = module.formulaHtml),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

const hasFormula = (text: string) => /\$[^$]+\$/.test(text);

/**
 * KaTeX's typesetter when `text` has a formula and KaTeX is loaded, else null; a text with a formula
 * starts the load and renders again once it is in (if it fails, the formulas stay as written).
 */
function useTypeset(text: string): Typeset | null {
  const needed = hasFormula(text);
  const [loaded, setLoaded] = useState<Typeset | null>(() => typeset);
  useEffect(() => {
    if (!needed || loaded) return;
    let live = true;
    loadFormulas().then(
      (ready) => {
        if (live) setLoaded(() => ready);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [needed, loaded]);
  return needed ? loaded : null;
}

/** Sanitised HTML of rich text, with every $…$ outside tags typeset when `formula` is given (left as written otherwise). */
export function richTextHtml(rich: string, typesetFormula: Typeset | null = typeset): string {
  const clean = purifier().sanitize(rich, { ALLOWED_TAGS, ALLOWED_ATTR, RETURN_DOM_FRAGMENT: true });
  // A 本校题 picture is fetched with the session (question-images.tsx), not by the tag: no src until then.
  for (const image of clean.querySelectorAll('img')) {
    const src = image.getAttribute('src') ?? '';
    if (!isQuestionImage(src)) continue;
    image.removeAttribute('src');
    image.setAttribute('data-question-image', src);
    if (!image.hasAttribute('alt')) image.setAttribute('alt', '图片');
  }
  const walker = document.createTreeWalker(clean, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node as Text);
  for (const node of texts) {
    const parts = splitFormulas(node.data);
    if (!typesetFormula || !parts.some((part) => part.tex)) continue;
    const replacement = document.createDocumentFragment();
    for (const part of parts) {
      if (!part.tex) {
        replacement.append(part.text);
        continue;
      }
      const formula = document.createElement('span');
      formula.className = styles.formula ?? '';
      formula.innerHTML = typesetFormula(part.text);
      replacement.append(formula);
    }
    node.replaceWith(replacement);
  }
  const holder = document.createElement('div');
  holder.append(clean);
  return holder.innerHTML;
}

/** Rich question text: sanitised HTML with its formulas typeset; line breaks are kept. */
export function RichText({ text, className }: { text: string; className?: string }) {
  const formula = useTypeset(text);
  const html = useMemo(() => richTextHtml(text, formula), [text, formula]);
  const ref = useRef<HTMLSpanElement>(null);
  const loadImage = useQuestionImageLoader();
  useEffect(() => (ref.current ? fillQuestionImages(ref.current, loadImage) : undefined), [html, loadImage]);
  return (
    <span
      ref={ref}
      className={className ? `${styles.rich} ${className}` : styles.rich}
      // Sanitised by DOMPurify's allowlist above; KaTeX output carries no scripts (trust: false).
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

/**
 * Rich text on one line (titles in the 试题篮, tooltips): tags and line breaks dropped, formulas typeset
 * as in the question list. Text parts are React text (escaped); formulas are KaTeX output.
 */
export function FormulaLine({ text, className }: { text: string; className?: string }) {
  const parts = useMemo(() => splitFormulas(plainText(text).replace(/\s+/g, ' ')), [text]);
  const formula = useTypeset(text);
  return (
    <span className={className}>
      {parts.map((part, i) =>
        !part.tex ? (
          part.text
        ) : formula ? (
          // KaTeX output carries no scripts (trust: false).
          <span key={i} className={styles.formula} dangerouslySetInnerHTML={{ __html: formula(part.text) }} />
        ) : (
          `$${part.text}$`
        ),
      )}
    </span>
  );
}
