/**
 * One page of an answer sheet (答题卡) as SVG in millimetres: the same template and the same texts the
 * PDF prints, so the teacher previews exactly what the scan station will read. Draws only; no IO.
 */
import { useMemo } from 'react';
import type { AnswerSheetSpec, AnswerSheetTemplate, FiducialCorner } from '../../shared/contract/answer-sheet';
import { sheetPageDecorations, type SheetText } from '../../shared/lib/answer-sheet-layout';
import { encodeSheetQr, sheetQrPath } from '../../shared/lib/answer-sheet-qr';

export interface AnswerSheetPreviewProps {
  template: AnswerSheetTemplate;
  /** 0-based index into `template.pages`. */
  pageIndex?: number;
  /** Titles, scores and instructions; without it only the geometry is drawn. */
  spec?: AnswerSheetSpec;
  student?: { name: string; code: string };
  className?: string;
}

const CORNER_NAMES: Record<FiducialCorner, string> = { tl: '左上', tr: '右上', bl: '左下', br: '右下' };
const FONT_FAMILY = "'Noto Sans SC', 'WenQuanYi Micro Hei', 'PingFang SC', 'Microsoft YaHei', sans-serif";
const FAINT = '#999';

export function AnswerSheetPreview({ template, pageIndex = 0, spec, student, className }: AnswerSheetPreviewProps) {
  const page = template.pages[pageIndex];
  const decorations = useMemo(
    () => (spec ? sheetPageDecorations(spec, template, pageIndex, student) : { texts: [], lines: [] }),
    [spec, template, pageIndex, student],
  );
  const qr = useMemo(
    () =>
      page
        ? sheetQrPath(
            encodeSheetQr({
              homeworkId: template.homeworkId,
              page: page.page,
              ...(student ? { studentCode: student.code } : {}),
            }),
          )
        : null,
    [page, template.homeworkId, student],
  );
  if (!page || !qr) return null;

  return (
    <svg
      className={className}
      viewBox={`0 0 ${template.pageWidthMm} ${template.pageHeightMm}`}
      width="100%"
      role="img"
      aria-label={`答题卡预览 第 ${page.page} 页（共 ${template.pages.length} 页）`}
      fontFamily={FONT_FAMILY}
    >
      <rect width={template.pageWidthMm} height={template.pageHeightMm} fill="#fff" />
      {page.fiducials.map((f) => (
        <rect
          key={f.corner}
          role="img"
          aria-label={`定位点（${CORNER_NAMES[f.corner]}）`}
          x={f.xMm - f.sizeMm / 2}
          y={f.yMm - f.sizeMm / 2}
          width={f.sizeMm}
          height={f.sizeMm}
          fill="#000"
        />
      ))}
      <path
        role="img"
        aria-label="二维码"
        d={qr.path}
        transform={`translate(${page.qr.xMm} ${page.qr.yMm}) scale(${page.qr.sizeMm / qr.modules})`}
        fill="#000"
      />
      {[page.studentBlock.nameBox, page.studentBlock.codeBox].map((b, i) => (
        <rect
          key={i}
          x={b.xMm + 0.15}
          y={b.yMm + 0.15}
          width={b.wMm - 0.3}
          height={b.hMm - 0.3}
          fill="none"
          stroke="#000"
          strokeWidth={0.3}
        />
      ))}
      {page.objectiveBlocks.map((b, i) => (
        <rect
          key={i}
          x={b.xMm + 0.1}
          y={b.yMm + 0.1}
          width={b.wMm - 0.2}
          height={b.hMm - 0.2}
          fill="none"
          stroke="#595959"
          strokeWidth={0.2}
        />
      ))}
      {page.objective.flatMap((q) =>
        q.options.map((o) => (
          <ellipse
            key={`${q.questionNo}-${o.label}`}
            role="img"
            aria-label={`第 ${q.questionNo} 题 选项 ${o.label}`}
            cx={o.xMm + o.wMm / 2}
            cy={o.yMm + o.hMm / 2}
            rx={(o.wMm - 0.3) / 2}
            ry={(o.hMm - 0.3) / 2}
            fill="none"
            stroke="#000"
            strokeWidth={0.3}
          />
        )),
      )}
      {page.regions.map((r) => (
        <rect
          key={r.questionNo}
          role="img"
          aria-label={`第 ${r.questionNo} 题 作答区`}
          x={r.xMm + 0.15}
          y={r.yMm + 0.15}
          width={r.wMm - 0.3}
          height={r.hMm - 0.3}
          fill="none"
          stroke="#000"
          strokeWidth={0.3}
        />
      ))}
      {decorations.lines.map((l, i) => (
        <line
          key={i}
          x1={l.x1Mm}
          y1={l.y1Mm}
          x2={l.x2Mm}
          y2={l.y2Mm}
          stroke={l.tone === 'ink' ? '#000' : FAINT}
          strokeWidth={l.tone === 'ink' ? 0.25 : 0.15}
        />
      ))}
      {decorations.texts.map((t, i) => (
        <SheetTextElement key={i} text={t} />
      ))}
    </svg>
  );
}

function SheetTextElement({ text: t }: { text: SheetText }) {
  // The browser cannot measure before drawing; squeeze only text that clearly would not fit.
  const squeeze = t.maxWidthMm !== undefined && estimatedWidthEm(t.text) * t.sizeMm > t.maxWidthMm;
  return (
    <text
      x={t.xMm}
      y={t.baselineMm}
      fontSize={t.sizeMm}
      textAnchor={t.align}
      fill={t.tone === 'ink' ? '#000' : FAINT}
      style={{ whiteSpace: 'pre' }}
      {...(squeeze ? { textLength: t.maxWidthMm, lengthAdjust: 'spacingAndGlyphs' } : {})}
    >
      {t.text}
    </text>
  );
}

/** Full-width (CJK) characters are one em wide, the rest about half. */
function estimatedWidthEm(text: string): number {
  let em = 0;
  for (const ch of text) em += /[\u2e80-\uffef]/u.test(ch) ? 1 : 0.55;
  return em;
}
