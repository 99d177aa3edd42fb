/**
 * /bigData (大数据): the school's numbers at a glance, full screen without the top bar, anonymous (no
 * student names or ranks): counts, score rate per subject and per week, grade bands, weakest knowledge
 * points.
 */
import { Spin } from '@douyinfe/semi-ui-19';
import { useBigData } from '../analysis-api';
import { pct } from '../analysis-format';
import styles from '../analysis.module.css';
import { EChart } from '../echart';

const TEXT = { color: '#cfe0ff' };

export function BigDataPage() {
  const big = useBigData();
  if (big.isLoading)
    return (
      <div className={styles.bigScreen}>
        <Spin size="large" />
      </div>
    );
  if (big.error || !big.data)
    return (
      <div className={styles.bigScreen}>
        <h1>数据暂时无法读取</h1>
      </div>
    );
  const data = big.data;
  return (
    <div className={styles.bigScreen}>
      <h1>{data.schoolName} · 作业大数据</h1>
      <div className={styles.bigGrid}>
        {[
          ['在校学生', data.students],
          ['已完成作业', data.homeworkFinished],
          ['已扫描作答', data.answersScanned],
        ].map(([label, value]) => (
          <div key={label} className={styles.bigPanel}>
            <h2>{label}</h2>
            <div className={styles.bigNumber}>{Number(value).toLocaleString('zh-CN')}</div>
          </div>
        ))}
        <div className={styles.bigPanel}>
          <h2>各学科得分率</h2>
          <EChart
            label="各学科得分率"
            height={240}
            option={{
              textStyle: TEXT,
              tooltip: {},
              grid: { left: 40, right: 16, bottom: 30 },
              xAxis: { type: 'category', data: data.subjects.map((s) => s.name), axisLabel: TEXT },
              yAxis: { type: 'value', max: 100, axisLabel: TEXT },
              series: [
                {
                  type: 'bar',
                  data: data.subjects.map((s) => (s.scoreRate === null ? null : Math.round(s.scoreRate * 1000) / 10)),
                  label: { show: true, position: 'top', color: '#fff' },
                },
              ],
            }}
          />
        </div>
        <div className={styles.bigPanel}>
          <h2>每周得分率</h2>
          <EChart
            label="每周得分率"
            height={240}
            option={{
              textStyle: TEXT,
              tooltip: { trigger: 'axis' },
              grid: { left: 40, right: 16, bottom: 30 },
              xAxis: { type: 'category', data: data.weekly.map((w) => w.week.slice(5)), axisLabel: TEXT },
              yAxis: { type: 'value', max: 100, axisLabel: TEXT },
              series: [
                {
                  type: 'line',
                  smooth: true,
                  areaStyle: {},
                  data: data.weekly.map((w) => (w.scoreRate === null ? null : Math.round(w.scoreRate * 1000) / 10)),
                },
              ],
            }}
          />
        </div>
        <div className={styles.bigPanel}>
          <h2>等级分布（人次）</h2>
          <EChart
            label="等级分布"
            height={240}
            option={{
              textStyle: TEXT,
              tooltip: {},
              series: [
                {
                  type: 'pie',
                  radius: ['40%', '70%'],
                  label: { color: '#fff' },
                  data: data.gradeBands.map((b) => ({ name: b.band, value: b.count })),
                },
              ],
            }}
          />
        </div>
      </div>
      <div className={styles.bigPanel} style={{ marginTop: 16 }}>
        <h2>需要关注的知识点</h2>
        <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: 8 }}>
          {data.weakPoints.map((p) => (
            <div key={`${p.subject}-${p.name}`}>
              {p.subject} · {p.name}：掌握度 {pct(p.mastery, 0)}（{p.questionCount} 题）
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
