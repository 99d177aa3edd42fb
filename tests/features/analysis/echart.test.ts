import { describe, expect, it } from 'vitest';
import { withLegendOnTop } from '../../../src/features/analysis/echart';

describe('withLegendOnTop', () => {
  it('puts a legend at the top, scrolling, where ECharts 6 would put it over the category labels', () => {
    expect(withLegendOnTop({ legend: {}, series: [] })).toEqual({ legend: { top: 0, type: 'scroll' }, series: [] });
  });

  it("keeps a chart's own legend settings and leaves charts without a legend alone", () => {
    expect(withLegendOnTop({ legend: { top: 8, type: 'plain' } })).toEqual({ legend: { top: 8, type: 'plain' } });
    const noLegend = { series: [] };
    expect(withLegendOnTop(noLegend)).toBe(noLegend);
  });
});
