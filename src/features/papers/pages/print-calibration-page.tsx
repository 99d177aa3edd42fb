/**
 * The printer calibration pages (/pringtingtest, /printgradetest): a 100 mm ruler in each direction,
 * corner marks 10 mm from the paper's edges and a 50 × 50 mm square, drawn in millimetres, with Chinese
 * instructions for checking the printer's scale and margins with a ruler.
 */
import { Radio, RadioGroup } from '@douyinfe/semi-ui-19';
import { useState } from 'react';
import { PRINT_PAPER_MM, PrintPage, PrintSheet, type PrintPaperSize } from '../../../shared/ui/print-sheet';
import { useBack } from '../use-back';
import styles from './print-pages.module.css';

export const CALIBRATION = { rulerMm: 100, cornerInsetMm: 10, cornerArmMm: 8, squareMm: 50 } as const;

const INSTRUCTIONS = [
  '点击“打印”，在打印对话框中把缩放设为“实际大小”（100%），不要选择“适合页面大小”，边距选择“无”或“默认”。',
  '用直尺测量横向和纵向刻度尺：0 到 100 毫米之间应恰好为 100 毫米。',
  '测量中间的正方形：四条边都应为 50 毫米。',
  '测量四个角标到纸张边缘的距离：每个角标的横线和竖线都应距离纸边 10 毫米。',
  '任一项误差超过 1 毫米时，请在打印机属性中调整缩放比例或页边距后重新打印本页，直到全部相符再打印答题卡。',
];

export function PrintCalibrationPage({ title }: { title: string }) {
  const back = useBack();
  const [paperSize, setPaperSize] = useState<PrintPaperSize>('A4');
  return (
    <PrintSheet
      onBack={back}
      title={title}
      paperSize={paperSize}
      marginMm={0}
      layout="pages"
      toolbar={
        <RadioGroup
          type="button"
          aria-label="纸张大小"
          value={paperSize}
          onChange={(event) => setPaperSize(event.target.value as PrintPaperSize)}
        >
          <Radio value="A4">A4</Radio>
          <Radio value="A3">A3</Radio>
        </RadioGroup>
      }
    >
      <PrintPage label={`${title} ${paperSize} 校准页`} padded={false}>
        <CalibrationDrawing paperSize={paperSize} title={title} />
        <div className={styles.instructions}>
          <h2>校准步骤</h2>
          <ol>
            {INSTRUCTIONS.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ol>
        </div>
      </PrintPage>
    </PrintSheet>
  );
}

function CalibrationDrawing({ paperSize, title }: { paperSize: PrintPaperSize; title: string }) {
  const { widthMm: w, heightMm: h } = PRINT_PAPER_MM[paperSize];
  const { rulerMm, cornerInsetMm: inset, cornerArmMm: arm, squareMm } = CALIBRATION;
  const rulerX = 40;
  const rulerY = 50;
  const corners = [
    { x: inset, y: inset, dx: 1, dy: 1, name: '左上' },
    { x: w - inset, y: inset, dx: -1, dy: 1, name: '右上' },
    { x: inset, y: h - inset, dx: 1, dy: -1, name: '左下' },
    { x: w - inset, y: h - inset, dx: -1, dy: -1, name: '右下' },
  ];
  return (
    <svg
      className={styles.calibrationSvg}
      viewBox={`0 0 ${w} ${h}`}
      width={`${w}mm`}
      height={`${h}mm`}
      role="img"
      aria-label={`${paperSize} 打印校准图`}
      fontFamily="'Noto Sans SC', 'WenQuanYi Micro Hei', 'Microsoft YaHei', sans-serif"
    >
      <text x={w / 2} y={26} fontSize={6} textAnchor="middle" fontWeight="bold">
        {title}：打印机比例与边距校准（{paperSize}）
      </text>
      {corners.map((c) => (
        <g key={c.name} role="img" aria-label={`角标（${c.name}，距纸边 ${inset} 毫米）`} stroke="#000" strokeWidth={0.3}>
          <line x1={c.x} y1={c.y} x2={c.x + c.dx * arm} y2={c.y} />
          <line x1={c.x} y1={c.y} x2={c.x} y2={c.y + c.dy * arm} />
        </g>
      ))}
      <g role="img" aria-label={`横向刻度尺 ${rulerMm} 毫米`} stroke="#000" strokeWidth={0.2}>
        <line x1={rulerX} y1={rulerY} x2={rulerX + rulerMm} y2={rulerY} />
        {ticks(rulerMm).map((t) => (
          <line key={t.mm} x1={rulerX + t.mm} y1={rulerY} x2={rulerX + t.mm} y2={rulerY - t.len} />
        ))}
      </g>
      {ticks(rulerMm)
        .filter((t) => t.mm % 10 === 0)
        .map((t) => (
          <text key={t.mm} x={rulerX + t.mm} y={rulerY - 7} fontSize={2.8} textAnchor="middle">
            {t.mm}
          </text>
        ))}
      <text x={rulerX + rulerMm + 3} y={rulerY + 1} fontSize={3}>
        毫米
      </text>
      <g role="img" aria-label={`纵向刻度尺 ${rulerMm} 毫米`} stroke="#000" strokeWidth={0.2}>
        <line x1={rulerX - 15} y1={rulerY + 10} x2={rulerX - 15} y2={rulerY + 10 + rulerMm} />
        {ticks(rulerMm).map((t) => (
          <line key={t.mm} x1={rulerX - 15} y1={rulerY + 10 + t.mm} x2={rulerX - 15 + t.len} y2={rulerY + 10 + t.mm} />
        ))}
      </g>
      {ticks(rulerMm)
        .filter((t) => t.mm % 10 === 0)
        .map((t) => (
          <text key={t.mm} x={rulerX - 15 + 6.5} y={rulerY + 11 + t.mm} fontSize={2.8}>
            {t.mm}
          </text>
        ))}
      <rect
        x={rulerX + 25}
        y={rulerY + 30}
        width={squareMm}
        height={squareMm}
        fill="none"
        stroke="#000"
        strokeWidth={0.3}
        role="img"
        aria-label={`正方形 ${squareMm}×${squareMm} 毫米`}
      />
      <text x={rulerX + 25 + squareMm / 2} y={rulerY + 30 + squareMm / 2 + 1.5} fontSize={4} textAnchor="middle">
        {squareMm} × {squareMm} 毫米
      </text>
    </svg>
  );
}

/** Millimetre ticks of a ruler: long at each centimetre, middle at each half, short otherwise. */
function ticks(lengthMm: number): { mm: number; len: number }[] {
  return Array.from({ length: lengthMm + 1 }, (_, mm) => ({ mm, len: mm % 10 === 0 ? 5 : mm % 5 === 0 ? 3.5 : 2 }));
}
