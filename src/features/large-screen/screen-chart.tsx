/**
 * One chart of the large screen. ECharts comes from the portal's tree-shaken lazy module, handed in by the
 * entry (`loadCharts`), so the display's first paint carries none of it. The chart lives as long as the
 * component: new figures go through setOption, so bars and cells animate instead of being redrawn.
 */
import type { EChartsCoreOption } from 'echarts/core';
import { createContext, useContext, useEffect, useRef } from 'react';

type EChartsModule = { echarts: { init: (element: HTMLElement) => ChartInstance } };
type ChartInstance = {
  setOption: (option: EChartsCoreOption, notMerge?: boolean) => void;
  resize: () => void;
  dispose: () => void;
};

export type LoadCharts = () => Promise<EChartsModule>;

export const ChartsContext = createContext<LoadCharts | null>(null);

export function ScreenChart({ option, label }: { option: EChartsCoreOption; label: string }) {
  const load = useContext(ChartsContext);
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<ChartInstance | null>(null);
  const latest = useRef(option);

  useEffect(() => {
    let disposed = false;
    const resize = () => chart.current?.resize();
    void load?.().then(
      ({ echarts }) => {
        if (disposed || !ref.current) return;
        try {
          chart.current = echarts.init(ref.current);
          chart.current.setOption(latest.current);
          window.addEventListener('resize', resize);
        } catch {
          // No canvas (tests): the numbers beside the chart carry the same figures.
        }
      },
      // Not loaded: the entry's loader decides what follows (the wall screen reloads when the server answers).
      () => undefined,
    );
    return () => {
      disposed = true;
      window.removeEventListener('resize', resize);
      chart.current?.dispose();
      chart.current = null;
    };
  }, [load]);

  useEffect(() => {
    latest.current = option;
    chart.current?.setOption(option);
  }, [option]);

  return <div ref={ref} role="img" aria-label={label} style={{ width: '100%', height: '100%' }} />;
}
