import { ComponentModel } from 'echarts/core';
import { describe, expect, it } from 'vitest';
import { echarts } from '../../../src/features/analysis/echarts-setup';
import { resultChartOptions } from '../../../src/features/large-screen/screen-panels';
import type { ScreenResults } from '../../../src/shared/contract/large-screen';

const results: ScreenResults = {
  homework: { id: 1, title: '期中复习卷', subjectName: '数学', date: '2026-11-08', full: 60 },
  grade: { scoreRate: 0.631, participants: 154, enrolled: 160 },
  classes: [
    { classId: 1, name: '一班', participants: 36, enrolled: 40, scoreRate: 0.671, mean: 40.25, gradeBands: [] },
    { classId: 2, name: '二班', participants: 40, enrolled: 40, scoreRate: 0.571, mean: 34.25, gradeBands: [] },
  ],
  mostMissed: [],
  heatmapHomeworkCount: 6,
  // As the server sends them: the weakest point first.
  heatmap: [
    { name: '乘法公式', values: [0.51, 0.36] },
    { name: '因式分解', values: [0.57, 0.46] },
    { name: '一元一次方程的解法', values: [0.67, null] },
  ],
  mostImproved: null,
  topStudents: null,
};

type Option = Record<string, unknown> & { series?: Record<string, unknown>[] };

/** The component types an option needs: its top-level components and the marks inside its series. */
function componentsOf(option: Option): string[] {
  const top = Object.keys(option).filter((key) =>
    ['grid', 'xAxis', 'yAxis', 'legend', 'visualMap', 'tooltip', 'title', 'dataZoom'].includes(key),
  );
  const marks = (option.series ?? []).flatMap((series) => ['markLine', 'markPoint', 'markArea'].filter((key) => series[key]));
  return [...top, ...marks];
}

describe('the wall screen’s 作业成绩 charts', () => {
  it('use only components the shared ECharts setup registers (the grade line on 班级得分率对比 is drawn)', () => {
    void echarts;
    const options = resultChartOptions(results, 16) as Record<string, Option>;
    const needed = Object.values(options).flatMap(componentsOf);
    expect(needed).toContain('markLine');
    const missing = needed.filter((type) => !(ComponentModel as unknown as { hasClass: (t: string) => boolean }).hasClass(type));
    expect(missing).toEqual([]);
  });

  it('put the weakest knowledge point on top of the heat map, as its title says', () => {
    const { heat } = resultChartOptions(results, 16) as unknown as { heat: { yAxis: { data: string[]; inverse?: boolean } } };
    // A category axis draws its first value at the bottom unless inverted.
    const topRow = heat.yAxis.inverse ? heat.yAxis.data[0] : heat.yAxis.data.at(-1);
    expect(topRow).toBe('乘法公式');
  });
});
