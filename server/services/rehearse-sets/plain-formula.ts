/**
 * Question text with its formulas ($...$, LaTeX) written out as plain text, for the set preview and the
 * printed re-practice papers (pdf-lib draws text, not maths): \frac{a}{b} -> (a)/(b), \sqrt{x} -> √(x),
 * x^{2} -> x², \times -> ×, and so on. Pure.
 */

const SYMBOLS: Record<string, string> = {
  times: '×',
  div: '÷',
  cdot: '·',
  pm: '±',
  mp: '∓',
  ne: '≠',
  neq: '≠',
  le: '≤',
  leq: '≤',
  ge: '≥',
  geq: '≥',
  approx: '≈',
  pi: 'π',
  alpha: 'α',
  beta: 'β',
  gamma: 'γ',
  theta: 'θ',
  triangle: '△',
  Delta: 'Δ',
  angle: '∠',
  circ: '°',
  degree: '°',
  because: '∵',
  therefore: '∴',
  perp: '⊥',
  parallel: '∥',
  infty: '∞',
  quad: ' ',
  qquad: '  ',
  left: '',
  right: '',
  ',': ' ',
};
const SUPERSCRIPTS: Record<string, string> = {
  '0': '⁰',
  '1': '¹',
  '2': '²',
  '3': '³',
  '4': '⁴',
  '5': '⁵',
  '6': '⁶',
  '7': '⁷',
  '8': '⁸',
  '9': '⁹',
  '-': '⁻',
  n: 'ⁿ',
};

/** Index of the brace closing the one at `open`. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    if (text[i] === '{') depth += 1;
    else if (text[i] === '}') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return text.length - 1;
}

/** Reads a group `{...}` or a single character at `at`: its text and where it ends. */
function group(text: string, at: number): { inner: string; end: number } {
  if (text[at] === '{') {
    const end = closing(text, at);
    return { inner: text.slice(at + 1, end), end: end + 1 };
  }
  return { inner: text[at] ?? '', end: at + 1 };
}

const wrap = (value: string) => (value.length > 1 ? `(${value})` : value);

/** One formula (without the dollars) as plain text. */
export function formulaText(tex: string): string {
  let out = '';
  let i = 0;
  while (i < tex.length) {
    const c = tex[i]!;
    if (c === '\\') {
      const name = /^[a-zA-Z]+|^./.exec(tex.slice(i + 1))?.[0] ?? '';
      i += 1 + name.length;
      if (name === 'frac' || name === 'dfrac' || name === 'tfrac') {
        const a = group(tex, i);
        const b = group(tex, a.end);
        out += `${wrap(formulaText(a.inner))}/${wrap(formulaText(b.inner))}`;
        i = b.end;
      } else if (name === 'sqrt') {
        let index = '';
        if (tex[i] === '[') {
          const end = tex.indexOf(']', i);
          index = tex.slice(i + 1, end);
          i = end + 1;
        }
        const a = group(tex, i);
        out += `${index ? (SUPERSCRIPTS[index] ?? index) : ''}√${wrap(formulaText(a.inner))}`;
        i = a.end;
      } else if (name === 'begin' || name === 'end') {
        i = group(tex, i).end;
        out += name === 'begin' ? '{' : '';
      } else if (name === 'text' || name === 'mathrm' || name === 'operatorname') {
        const a = group(tex, i);
        out += a.inner;
        i = a.end;
      } else if (name === '\\') {
        out += '；';
      } else {
        out += SYMBOLS[name] ?? name;
      }
    } else if (c === '^' || c === '_') {
      const a = group(tex, i + 1);
      const inner = formulaText(a.inner);
      if (c === '^' && [...inner].every((ch) => SUPERSCRIPTS[ch])) out += [...inner].map((ch) => SUPERSCRIPTS[ch]).join('');
      else out += c === '^' ? `^${wrap(inner)}` : inner;
      i = a.end;
    } else if (c === '{' || c === '}') {
      i += 1;
    } else if (c === '&') {
      i += 1;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

/** Text with every $...$ formula written out. */
export function plainFormulaText(text: string): string {
  return text
    .replace(/\$\$?([^$]+)\$\$?/g, (_, tex: string) => formulaText(tex))
    .replace(/\s+/g, ' ')
    .trim();
}
