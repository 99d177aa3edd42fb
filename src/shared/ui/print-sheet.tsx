/**
 * The print frame every print page shares: a screen-only toolbar with a 打印 button, paper drawn at its
 * real size in millimetres, and print rules (`@page` size and margin, everything but the paper hidden).
 * Two layouts: `flow` (one long sheet the browser paginates, e.g. a paper) and `pages` (children are
 * fixed {@link PrintPage}s, e.g. calibration pages and code labels, printed with no @page margin).
 * Owns no data and no IO.
 */
import { IconArrowLeft, IconPrint } from '@douyinfe/semi-icons';
import { Button, Typography } from '@douyinfe/semi-ui-19';
import { createContext, useContext, type CSSProperties, type ReactNode } from 'react';
import styles from './print-sheet.module.css';

export type PrintPaperSize = 'A4' | 'A3';

/** Paper as printed: A4 portrait, A3 landscape (two A4 columns side by side). */
export const PRINT_PAPER_MM: Record<
  PrintPaperSize,
  { widthMm: number; heightMm: number; orientation: 'portrait' | 'landscape' }
> = {
  A4: { widthMm: 210, heightMm: 297, orientation: 'portrait' },
  A3: { widthMm: 420, heightMm: 297, orientation: 'landscape' },
};

export const DEFAULT_PRINT_MARGIN_MM = 15;

/** The `@page` rule of a paper size and margin. */
export function pageRule(paperSize: PrintPaperSize, marginMm: number): string {
  return `@page { size: ${paperSize} ${PRINT_PAPER_MM[paperSize].orientation}; margin: ${marginMm}mm; }`;
}

type SheetContext = { paperSize: PrintPaperSize; marginMm: number };
const PrintSheetContext = createContext<SheetContext>({ paperSize: 'A4', marginMm: DEFAULT_PRINT_MARGIN_MM });

export interface PrintSheetProps {
  /** Shown in the toolbar on screen only. */
  title: string;
  paperSize?: PrintPaperSize;
  /** The printer margin in `flow`; the page padding in `pages`. */
  marginMm?: number;
  layout?: 'flow' | 'pages';
  /** Two text columns (A3 papers). Flow layout only. */
  columns?: 1 | 2;
  /** Controls beside the 打印 button (size switch, class picker ...). */
  toolbar?: ReactNode;
  /** Disables printing while there is nothing to print. */
  printable?: boolean;
  /** Shows a 返回 button (print pages have no top bar). */
  onBack?: () => void;
  children: ReactNode;
}

export function PrintSheet({
  title,
  paperSize = 'A4',
  marginMm = DEFAULT_PRINT_MARGIN_MM,
  layout = 'flow',
  columns = 1,
  toolbar,
  printable = true,
  onBack,
  children,
}: PrintSheetProps) {
  const paper = PRINT_PAPER_MM[paperSize];
  const flowStyle: CSSProperties = {
    width: `${paper.widthMm}mm`,
    minHeight: `${paper.heightMm}mm`,
    padding: `${marginMm}mm`,
  };
  return (
    <PrintSheetContext.Provider value={{ paperSize, marginMm }}>
      <div className={styles.screen} data-print-root="">
        <style>{pageRule(paperSize, layout === 'pages' ? 0 : marginMm)}</style>
        <div className={styles.toolbar} role="toolbar" aria-label="打印设置">
          {onBack ? (
            <Button theme="borderless" icon={<IconArrowLeft />} onClick={onBack}>
              返回
            </Button>
          ) : null}
          <Typography.Title heading={5} className={styles.toolbarTitle}>
            {title}
          </Typography.Title>
          {toolbar}
          <Button theme="solid" icon={<IconPrint />} disabled={!printable} onClick={() => window.print()}>
            打印
          </Button>
        </div>
        <div className={styles.stack}>
          {layout === 'flow' ? (
            <article
              className={[styles.sheet, styles.flow, columns === 2 ? styles.twoColumns : ''].join(' ')}
              style={flowStyle}
              aria-label={`${paperSize} 纸张`}
              data-paper-size={paperSize}
            >
              {children}
            </article>
          ) : (
            children
          )}
        </div>
      </div>
    </PrintSheetContext.Provider>
  );
}

/** One fixed page of a `pages` layout: exactly the paper's size, padded by the frame's margin. */
export function PrintPage({ children, label, padded = true }: { children: ReactNode; label?: string; padded?: boolean }) {
  const { paperSize, marginMm } = useContext(PrintSheetContext);
  const paper = PRINT_PAPER_MM[paperSize];
  return (
    <section
      className={`${styles.sheet} ${styles.page}`}
      style={{ width: `${paper.widthMm}mm`, height: `${paper.heightMm}mm`, padding: padded ? `${marginMm}mm` : 0 }}
      aria-label={label ?? `${paperSize} 纸张`}
      data-paper-size={paperSize}
    >
      {children}
    </section>
  );
}
