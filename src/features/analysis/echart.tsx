/**
 * One ECharts chart. ECharts is imported tree-shaken (echarts/core plus only the charts and components
 * used, in echarts-setup.ts) and loaded lazily, so pages without charts and a page's first paint do not
 * carry it.
 */
import { useEffect, useRef } from 'react';
import type { EChartsCoreOption } from 'echarts/core';
import styles from './analysis.module.css';

/**
 * ECharts 6 puts a legend at the bottom by default, where it covers the category labels; ours sit at the
 * top, scrolling when a narrow screen cannot hold every series.
 */
export function withLegendOnTop(option: EChartsCoreOption): EChartsCoreOption {
  if (!option.legend || Array.isArray(option.legend)) return option;
  return { ...option, legend: { top: 0, type: 'scroll', ...(option.legend as object) } };
}

/** The width a chart is drawn at on paper: A4 less the print margins (210 mm - 2 x 10 mm), in CSS pixels. */
export const PRINT_WIDTH_PX = 718;

/** Where a click landed on a category chart: the x category's index, and [x, y] categories (a heatmap's cell). */
export type ChartItem = { dataIndex: number; category: [number, number] };

export function EChart({
  option,
  height = 280,
  label,
  onItemClick,
}: {
  option: EChartsCoreOption;
  height?: number;
  label: string;
  /** Drill-down: called with the bar, point or cell clicked. */
  onItemClick?: (item: ChartItem) => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const clicked = useRef(onItemClick);
  useEffect(() => {
    clicked.current = onItemClick;
  });
  useEffect(() => {
    let disposed = false;
    let dispose = () => undefined as void;
    void import('./echarts-setup').then(({ echarts }) => {
      if (disposed || !ref.current) return;
      try {
        const chart = echarts.init(ref.current);
        chart.setOption(withLegendOnTop(option));
        // Anywhere in a category's column counts, not only on a line's small point.
        chart.getZr().on('click', ({ offsetX, offsetY }) => {
          if (!clicked.current || !chart.containPixel({ gridIndex: 0 }, [offsetX, offsetY])) return;
          const [x, y] = chart.convertFromPixel({ gridIndex: 0 }, [offsetX, offsetY]) as number[];
          if (x === undefined || !Number.isFinite(x)) return;
          clicked.current({ dataIndex: Math.round(x), category: [Math.round(x), Math.round(y ?? 0)] });
        });
        const resize = () => chart.resize();
        window.addEventListener('resize', resize);
        // On paper the chart is drawn again at the paper's width (the screen's layout width is still what
        // the page measures when printing starts), and at the screen's again after.
        const print = window.matchMedia?.('print');
        const forPrint = (printing: boolean) => chart.resize(printing ? { width: PRINT_WIDTH_PX } : undefined);
        const onPrintChange = (event: MediaQueryListEvent) => forPrint(event.matches);
        const beforePrint = () => forPrint(true);
        const afterPrint = () => forPrint(false);
        print?.addEventListener?.('change', onPrintChange);
        window.addEventListener('beforeprint', beforePrint);
        window.addEventListener('afterprint', afterPrint);
        dispose = () => {
          window.removeEventListener('resize', resize);
          print?.removeEventListener?.('change', onPrintChange);
          window.removeEventListener('beforeprint', beforePrint);
          window.removeEventListener('afterprint', afterPrint);
          chart.dispose();
        };
      } catch {
        // No canvas (tests, very old browsers): the table beside the chart carries the same figures.
      }
    });
    return () => {
      disposed = true;
      dispose();
    };
  }, [option]);
  return <div ref={ref} role="img" aria-label={label} className={styles.chart} style={{ width: '100%', height }} />;
}
