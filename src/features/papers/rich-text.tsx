/**
 * Question text as a reader sees it: the rich text of the bank shown as plain text (tags dropped, line
 * breaks kept, never injected as HTML) with $...$ formulas typeset by a small TeX subset — fractions,
 * roots, powers, indices, case braces and the usual symbols. Anything it does not know is shown as
 * written, so nothing is lost. (KaTeX is not installed.)
 */
import { Fragment, type ReactNode } from 'react';
import styles from './rich-text.module.css';

const SYMBOLS: Record<string, string> = {
  times: '×',
  div: '÷',
  ne: '≠',
  neq: '≠',
  pm: '±',
  mp: '∓',
  le: '≤',
  leq: '≤',
  ge: '≥',
  geq: '≥',
  cdot: '·',
  pi: 'π',
  alpha: 'α',
  beta: 'β',
  gamma: 'γ',
  theta: 'θ',
  Delta: 'Δ',
  triangle: '△',
  angle: '∠',
  circ: '°',
  degree: '°',
  because: '∵',
  therefore: '∴',
  parallel: '∥',
  perp: '⊥',
  cong: '≅',
  sim: '∽',
  approx: '≈',
  infty: '∞',
  in: '∈',
  cup: '∪',
  cap: '∩',
  rightarrow: '→',
  Rightarrow: '⇒',
  quad: '\u2003',
  qquad: '\u2003\u2003',
  ',': '\u2009',
  ';': '\u2005',
  ' ': ' ',
  '{': '{',
  '}': '}',
  '%': '%',
  $: '$',
};

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

/** A tiny recursive-descent reader of the TeX subset, producing React nodes. */
class TexReader {
  private i = 0;
  private key = 0;
  constructor(private readonly src: string) {}

  read(): ReactNode[] {
    return this.sequence(() => false);
  }

  private nextKey(): number {
    this.key += 1;
    return this.key;
  }

  private sequence(stop: () => boolean): ReactNode[] {
    const nodes: ReactNode[] = [];
    while (this.i < this.src.length && !stop()) {
      const node = this.atom();
      if (node !== null) nodes.push(node);
    }
    return nodes;
  }

  /** A {group} or a single atom, as used by arguments, ^ and _. */
  private argument(): ReactNode[] {
    this.skipSpaces();
    if (this.src[this.i] === '{') {
      this.i += 1;
      const nodes = this.sequence(() => this.src[this.i] === '}');
      this.i += 1;
      return nodes;
    }
    const node = this.atom();
    return node === null ? [] : [node];
  }

  private skipSpaces(): void {
    while (this.src[this.i] === ' ') this.i += 1;
  }

  private command(): string {
    const rest = this.src.slice(this.i + 1);
    const name = /^[a-zA-Z]+/.exec(rest)?.[0] ?? rest.charAt(0);
    this.i += 1 + name.length;
    return name;
  }

  private atom(): ReactNode | null {
    const ch = this.src.charAt(this.i);
    const key = this.nextKey();
    if (ch === '{') {
      return <Fragment key={key}>{this.argument()}</Fragment>;
    }
    if (ch === '}') {
      // A stray closing brace: show it rather than loop on it.
      this.i += 1;
      return '}';
    }
    if (ch === '^' || ch === '_') {
      this.i += 1;
      const inner = this.argument();
      return ch === '^' ? <sup key={key}>{inner}</sup> : <sub key={key}>{inner}</sub>;
    }
    if (ch !== '\\') {
      this.i += 1;
      return ch;
    }
    const name = this.command();
    switch (name) {
      case 'frac':
      case 'dfrac':
      case 'tfrac': {
        const num = this.argument();
        const den = this.argument();
        return (
          <span key={key} className={styles.frac}>
            <span className={styles.num}>{num}</span>
            <span className={styles.den}>{den}</span>
          </span>
        );
      }
      case 'sqrt': {
        const inner = this.argument();
        return (
          <span key={key} className={styles.sqrt}>
            √<span className={styles.radicand}>{inner}</span>
          </span>
        );
      }
      case 'left':
      case 'right': {
        const delimiter = this.src.charAt(this.i);
        if (delimiter === '\\') return SYMBOLS[this.command()] ?? '';
        this.i += 1;
        return delimiter === '.' ? null : delimiter;
      }
      case 'text':
      case 'mathrm':
      case 'mathbf':
      case 'overline':
        return (
          <span key={key} className={name === 'overline' ? styles.overline : undefined}>
            {this.argument()}
          </span>
        );
      case 'begin':
        return this.environment(key);
      case '\\':
        return <br key={key} />;
      default:
        return SYMBOLS[name] ?? `\\${name}`;
    }
  }

  private environment(key: number): ReactNode {
    const env = this.argumentText();
    const end = `\\end{${env}}`;
    const close = this.src.indexOf(end, this.i);
    const body = close === -1 ? this.src.slice(this.i) : this.src.slice(this.i, close);
    this.i = close === -1 ? this.src.length : close + end.length;
    const rows = body.split('\\\\').map((row) => row.replace(/&/g, ' ').trim());
    return (
      <span key={key} className={env === 'cases' ? styles.cases : styles.rows}>
        {rows.map((row, r) => (
          <span key={r} className={styles.row}>
            {new TexReader(row).read()}
          </span>
        ))}
      </span>
    );
  }

  private argumentText(): string {
    this.skipSpaces();
    if (this.src[this.i] !== '{') return '';
    const close = this.src.indexOf('}', this.i);
    const text = this.src.slice(this.i + 1, close === -1 ? undefined : close);
    this.i = close === -1 ? this.src.length : close + 1;
    return text;
  }
}

export function TexFormula({ tex }: { tex: string }) {
  return (
    <span className={styles.formula} title={tex}>
      {new TexReader(tex).read()}
    </span>
  );
}

/** Rich question text with its formulas typeset; line breaks are kept. */
export function RichText({ text, className }: { text: string; className?: string }) {
  const plain = plainText(text);
  return (
    <span className={className ? `${styles.rich} ${className}` : styles.rich}>
      {splitFormulas(plain).map((part, i) =>
        part.tex ? <TexFormula key={i} tex={part.text} /> : <Fragment key={i}>{part.text}</Fragment>,
      )}
    </span>
  );
}
