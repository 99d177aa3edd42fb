/**
 * The three panels of the large screen, drawn from a snapshot (with live events applied): today's
 * pipeline per homework and class, marking per question and teacher, and the results of the most recent
 * homework. Type is sized for reading from 5 m (the screen scales all of it with the window).
 */
import type { EChartsCoreOption } from 'echarts/core';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { LargeScreenSnapshot, PipelineHomework, ScreenResults } from '../../shared/contract/large-screen';
import styles from './large-screen.module.css';
import {
  cardsThatFit,
  classPrintedText,
  clockText,
  finishText,
  markingTotals,
  percent,
  pipelineTotals,
  printedText,
  rateText,
} from './panel-data';
import { ScreenChart } from './screen-chart';

const STATUS_TEXT: Record<string, string> = { assigned: '待扫描', scanning: '扫描中', marking: '阅卷中', finished: '已发布' };

function Stage({
  label,
  value,
  testId,
  tone,
}: {
  label: string;
  value: number | string;
  testId: string;
  tone?: 'warn' | 'done';
}) {
  return (
    <div className={`${styles.stage} ${tone ? styles[tone] : ''}`}>
      <span className={styles.stageValue} data-testid={testId}>
        {value}
      </span>
      <span className={styles.stageLabel}>{label}</span>
    </div>
  );
}

function Bar({ value, total, tone }: { value: number; total: number; tone?: 'done' }) {
  const width = percent(value, total);
  return (
    <div className={styles.bar} role="progressbar" aria-valuenow={width} aria-valuemin={0} aria-valuemax={100}>
      <div className={`${styles.barFill} ${tone === 'done' ? styles.barDone : ''}`} style={{ width: `${width}%` }} />
    </div>
  );
}

function HomeworkPipeline({ hw, generatedAt }: { hw: PipelineHomework; generatedAt: string }) {
  const totals = pipelineTotals(hw);
  return (
    <section className={styles.card} aria-label={hw.title}>
      <header className={styles.cardHeader}>
        <span className={styles.subject}>{hw.subjectName}</span>
        <span className={styles.cardTitle}>{hw.title}</span>
        <span className={styles.badge}>{STATUS_TEXT[hw.status] ?? hw.status}</span>
        <span className={styles.eta}>{finishText(hw, generatedAt)}</span>
      </header>
      <div className={styles.stages}>
        <Stage
          label={hw.printing.lastPrintedAt ? `已印 · ${clockText(hw.printing.lastPrintedAt).slice(0, 5)}` : '已印'}
          value={printedText(hw)}
          testId="stage-printed"
        />
        <Stage label="应交" value={totals.enrolled} testId="stage-enrolled" />
        <Stage label="已扫描" value={totals.scanned} testId="stage-scanned" />
        <Stage label="已识别页" value={`${hw.pages.recognised}/${hw.pages.stored}`} testId="stage-recognised" />
        <Stage label="异常待处理" value={hw.review} testId="stage-review" tone={hw.review > 0 ? 'warn' : undefined} />
        <Stage label="已阅完" value={totals.complete} testId="stage-complete" />
        <Stage label="待仲裁" value={hw.arbitration} testId="stage-arbitration" tone={hw.arbitration > 0 ? 'warn' : undefined} />
        <Stage
          label="已发布"
          value={hw.status === 'finished' ? '是' : '否'}
          testId="stage-released"
          tone={hw.status === 'finished' ? 'done' : undefined}
        />
      </div>
      <table className={styles.table}>
        <thead>
          <tr>
            <th>班级</th>
            <th>已印</th>
            <th>已扫描 / 应交</th>
            <th className={styles.barCell}>扫描进度</th>
            <th>已阅完</th>
            <th className={styles.barCell}>阅卷进度</th>
            <th>异常</th>
            <th>缺考</th>
          </tr>
        </thead>
        <tbody>
          {hw.classes.map((c) => (
            <tr key={c.classId}>
              <td>{c.name}</td>
              <td className={styles.num} data-testid={`printed-${c.classId}`}>
                {classPrintedText(c.printed, hw)}
              </td>
              <td className={styles.num}>
                {c.scanned} / {c.enrolled}
              </td>
              <td className={styles.barCell}>
                <Bar value={c.scanned + c.absent} total={c.enrolled} />
              </td>
              <td className={styles.num}>{c.complete}</td>
              <td className={styles.barCell}>
                <Bar value={c.complete + c.absent} total={c.enrolled} tone="done" />
              </td>
              <td className={`${styles.num} ${c.review > 0 ? styles.warnText : ''}`}>{c.review}</td>
              <td className={styles.num}>{c.absent}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/**
 * Which of a panel's cards fit its height at the screen's size (measured before the browser paints: every
 * card is laid out, then those that do not fit are dropped, see cardsThatFit), for a panel whose cards are
 * its `section` children and whose 另有 line is its `p` child. Measured again when the cards change
 * (`shape`) and when the panel is resized. `shown` is null while measuring: lay out every card and the line.
 */
function useCardsThatFit(shape: string, hasCards: boolean) {
  const box = useRef<HTMLDivElement>(null);
  // The panel's height, followed so that a resized window is measured again.
  const [height, setHeight] = useState(0);
  // The cards measured to fit (indexes) for these cards at this height.
  const [fit, setFit] = useState<{ shape: string; height: number; shown: number[] } | null>(null);
  const shown = fit && fit.shape === shape && fit.height === height ? fit.shown : null;

  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setHeight(el.clientHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasCards]);
  useLayoutEffect(() => {
    const el = box.current;
    if (shown !== null || !el) return;
    const cards = Array.from(el.querySelectorAll<HTMLElement>(':scope > section'));
    const more = el.querySelector<HTMLElement>(':scope > p');
    const gap = parseFloat(getComputedStyle(el).rowGap) || 0;
    const heights = cards.map((card) => card.getBoundingClientRect().height);
    const moreHeight = (more?.getBoundingClientRect().height ?? 0) + gap;
    setFit({ shape, height, shown: cardsThatFit(el.getBoundingClientRect().height, heights, gap, moreHeight) });
  }, [shown, shape, height]);
  return { box, shown };
}

/**
 * Today's homework, as many cards as the panel's height holds at the screen's size, and a line counting the
 * rest.
 */
export function PipelinePanel({ snapshot }: { snapshot: LargeScreenSnapshot }) {
  const count = snapshot.pipeline.length;
  const shape = snapshot.pipeline.map((hw) => `${hw.homeworkId}:${hw.classes.length}`).join(',');
  const { box, shown } = useCardsThatFit(shape, count > 0);

  if (count === 0) return <p className={styles.empty}>今天还没有扫描或阅卷的作业</p>;
  const visible = shown === null ? snapshot.pipeline : snapshot.pipeline.filter((_, index) => shown.includes(index));
  const more = count - visible.length;
  return (
    <div className={styles.pipeline} ref={box}>
      {visible.map((hw) => (
        <HomeworkPipeline key={hw.homeworkId} hw={hw} generatedAt={snapshot.generatedAt} />
      ))}
      {/* While measuring, the line is laid out (not painted) for its height. */}
      {more > 0 || shown === null ? <p className={styles.more}>另有 {Math.max(more, 1)} 份作业在扫描或阅卷中</p> : null}
    </div>
  );
}

/** Teachers listed beside a homework's questions; the rest are summed on one line. */
const MARKING_TEACHERS = 6;
/**
 * Question rows a 阅卷进度 card holds: one card alone fits about 20 in the panel's height (the type scales
 * with the screen, so the count holds from 1366x768 to 4K); beyond this many, the first ones are listed and
 * the rest summed on one row (另有 N 题), so a card never runs past the panel.
 */
export const MARKING_QUESTION_ROWS = 16;

function HomeworkMarking({ hw }: { hw: PipelineHomework }) {
  const sum = markingTotals(hw.questions);
  const teachers = hw.teachers.slice(0, MARKING_TEACHERS);
  const otherTeachers = hw.teachers.length - teachers.length;
  const questions = hw.questions.length > MARKING_QUESTION_ROWS ? hw.questions.slice(0, MARKING_QUESTION_ROWS - 1) : hw.questions;
  const rest = hw.questions.slice(questions.length);
  const restSum = markingTotals(rest);
  return (
    <section className={styles.card} aria-label={`${hw.title} 阅卷`}>
      <header className={styles.cardHeader}>
        <span className={styles.subject}>{hw.subjectName}</span>
        <span className={styles.cardTitle}>{hw.title}</span>
        <span className={styles.badge}>{STATUS_TEXT[hw.status] ?? hw.status}</span>
      </header>
      <div className={`${styles.stages} ${styles.markingStages}`}>
        <Stage label="待阅" value={sum.todo} testId={`marking-todo-${hw.homeworkId}`} />
        <Stage label="阅卷中" value={sum.inProgress} testId={`marking-progress-${hw.homeworkId}`} />
        <Stage label="已阅" value={sum.done} testId={`marking-done-${hw.homeworkId}`} tone="done" />
        <Stage label="缺页" value={sum.missing} testId={`marking-missing-${hw.homeworkId}`} />
        <Stage
          label="双评待仲裁"
          value={hw.arbitration}
          testId={`marking-arbitration-${hw.homeworkId}`}
          tone={hw.arbitration > 0 ? 'warn' : undefined}
        />
      </div>
      <div className={styles.markingGrid}>
        <table className={styles.table}>
          <thead>
            <tr>
              <th>题号</th>
              <th className={styles.stackCell}>阅卷进度</th>
              <th>待阅</th>
              <th className={styles.progressText}>阅卷中</th>
              <th className={styles.doneText}>已阅</th>
              <th>缺页</th>
            </tr>
          </thead>
          <tbody>
            {questions.map((q) => {
              const total = q.todo + q.inProgress + q.done + q.missing;
              return (
                <tr key={q.no} data-testid={`question-${hw.homeworkId}-${q.no}`}>
                  <td>第 {q.no} 题</td>
                  <td className={styles.stackCell}>
                    <div
                      className={styles.stack}
                      role="img"
                      aria-label={`第 ${q.no} 题 已阅 ${q.done}，阅卷中 ${q.inProgress}，待阅 ${q.todo}，缺页 ${q.missing}`}
                    >
                      <div className={styles.stackDone} style={{ width: `${percent(q.done, total)}%` }} />
                      <div className={styles.stackProgress} style={{ width: `${percent(q.inProgress, total)}%` }} />
                      <div className={styles.stackMissing} style={{ width: `${percent(q.missing, total)}%` }} />
                    </div>
                  </td>
                  <td className={styles.num}>{q.todo}</td>
                  <td className={styles.num}>{q.inProgress}</td>
                  <td className={`${styles.num} ${styles.doneText}`}>{q.done}</td>
                  <td className={styles.num}>{q.missing}</td>
                </tr>
              );
            })}
            {rest.length > 0 ? (
              <tr data-testid={`questions-rest-${hw.homeworkId}`}>
                <td colSpan={2} className={styles.muted}>
                  另有 {rest.length} 题
                </td>
                <td className={styles.num}>{restSum.todo}</td>
                <td className={styles.num}>{restSum.inProgress}</td>
                <td className={`${styles.num} ${styles.doneText}`}>{restSum.done}</td>
                <td className={styles.num}>{restSum.missing}</td>
              </tr>
            ) : null}
          </tbody>
        </table>
        <table className={styles.table} aria-label={`${hw.title} 阅卷教师`}>
          <thead>
            <tr>
              <th>阅卷教师</th>
              <th>已阅</th>
              <th>阅卷中</th>
            </tr>
          </thead>
          <tbody>
            {teachers.map((t) => (
              <tr key={t.name}>
                <td className={styles.teacherName}>{t.name}</td>
                <td className={`${styles.num} ${styles.doneText}`}>{t.done}</td>
                <td className={styles.num}>{t.inProgress}</td>
              </tr>
            ))}
            {teachers.length === 0 ? (
              <tr>
                <td colSpan={3} className={styles.muted}>
                  还没有教师开始阅卷
                </td>
              </tr>
            ) : null}
            {otherTeachers > 0 ? (
              <tr>
                <td colSpan={3} className={styles.muted}>
                  另有 {otherTeachers} 位教师
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/**
 * 阅卷进度: today's homework with hand-marked questions, as many cards as the panel's height holds (as
 * 今日作业进度 does), each with its totals, arbitration waiting, per question to do / in progress / done /
 * missing and per teacher; a line counts the homework that do not fit.
 */
export function MarkingPanel({ snapshot }: { snapshot: LargeScreenSnapshot }) {
  const list = snapshot.pipeline.filter((hw) => hw.questions.length > 0);
  const shape = list
    .map(
      (hw) =>
        `${hw.homeworkId}:${Math.min(hw.questions.length, MARKING_QUESTION_ROWS + 1)}:${Math.min(hw.teachers.length, MARKING_TEACHERS + 1)}`,
    )
    .join(',');
  const { box, shown } = useCardsThatFit(shape, list.length > 0);

  if (list.length === 0) return <p className={styles.empty}>今天没有需要人工阅卷的题目</p>;
  const visible = shown === null ? list : list.filter((_, index) => shown.includes(index));
  const more = list.length - visible.length;
  return (
    <div className={styles.pipeline} ref={box}>
      {visible.map((hw) => (
        <HomeworkMarking key={hw.homeworkId} hw={hw} />
      ))}
      {/* While measuring, the line is laid out (not painted) for its height. */}
      {more > 0 || shown === null ? <p className={styles.more}>另有 {Math.max(more, 1)} 份作业在阅卷中</p> : null}
    </div>
  );
}

const TEXT = '#e8f0ff';

/** Chart text follows the screen's type size (the stylesheet's min(1.5vw, 2.7vh)). */
function chartFontSize(): number {
  return Math.round(Math.min(window.innerWidth * 0.015, window.innerHeight * 0.027) * 0.62);
}

/**
 * The results panel's three charts as ECharts options (pure, so a test can check them against the
 * components echarts-setup registers: an option whose component is not registered is dropped silently).
 */
export function resultChartOptions(results: ScreenResults, fontSize: number) {
  const AXIS = { axisLabel: { color: TEXT, fontSize, interval: 0 }, axisLine: { lineStyle: { color: '#5b6f9a' } } };
  const grid = { left: fontSize * 3, right: fontSize, top: fontSize * 2, bottom: fontSize * 2 };
  const names = results.classes.map((c) => c.name);
  const rates: EChartsCoreOption = {
    animationDurationUpdate: 800,
    // Room on the right for the grade line's label (年级 63.1%), drawn past the line's end.
    grid: { ...grid, right: fontSize * 6 },
    xAxis: { type: 'category', data: names, ...AXIS },
    yAxis: { type: 'value', max: 100, ...AXIS, splitLine: { lineStyle: { color: '#233a6b' } } },
    series: [
      {
        type: 'bar',
        data: results.classes.map((c) => (c.scoreRate === null ? null : Math.round(c.scoreRate * 1000) / 10)),
        itemStyle: { color: '#3aa0ff' },
        label: { show: true, position: 'top', color: TEXT, fontSize, formatter: '{c}%' },
        markLine:
          results.grade.scoreRate === null
            ? undefined
            : {
                symbol: 'none',
                data: [{ yAxis: Math.round(results.grade.scoreRate * 1000) / 10 }],
                lineStyle: { color: '#ffc53d' },
                label: { color: '#ffc53d', fontSize, formatter: '年级 {c}%' },
              },
      },
    ],
  };
  const bandNames = ['优秀', '良好', '合格', '待合格'] as const;
  const bandColors = ['#52c41a', '#3aa0ff', '#ffc53d', '#ff7a45'];
  const bands: EChartsCoreOption = {
    animationDurationUpdate: 800,
    legend: { top: 0, itemWidth: fontSize, itemHeight: fontSize * 0.7, textStyle: { color: TEXT, fontSize } },
    grid,
    xAxis: { type: 'category', data: names, ...AXIS },
    yAxis: { type: 'value', ...AXIS, splitLine: { lineStyle: { color: '#233a6b' } } },
    series: bandNames.map((band, i) => ({
      name: band,
      type: 'bar',
      stack: 'bands',
      itemStyle: { color: bandColors[i] },
      data: results.classes.map((c) => c.gradeBands.find((b) => b.band === band)?.count ?? 0),
    })),
  };
  const cells = results.heatmap.flatMap((row, y) => row.values.map((v, x) => [x, y, v === null ? '-' : Math.round(v * 100)]));
  const heat: EChartsCoreOption = {
    animationDurationUpdate: 800,
    // Sized with the type (a 4K screen has twice the pixels of 1080p, 1366x768 fewer): 11 characters of a point's name.
    grid: { left: fontSize * 12, right: fontSize, top: fontSize * 0.5, bottom: fontSize * 2 },
    xAxis: { type: 'category', data: names, ...AXIS },
    yAxis: {
      type: 'category',
      data: results.heatmap.map((r) => r.name),
      // The rows come weakest first and a category axis draws its first row at the bottom: inverted, the
      // weakest point is on top, as the panel's title says.
      inverse: true,
      ...AXIS,
      axisLabel: { color: TEXT, fontSize, width: fontSize * 11, overflow: 'truncate' },
    },
    visualMap: { min: 0, max: 100, show: false, inRange: { color: ['#ff4d4f', '#ffc53d', '#52c41a'] } },
    series: [{ type: 'heatmap', data: cells, label: { show: true, color: '#0b1a3a', fontSize } }],
  };
  return { rates, bands, heat };
}

function useResultCharts(results: ScreenResults, fontSize: number) {
  return useMemo(() => resultChartOptions(results, fontSize), [results, fontSize]);
}

export function ResultsPanel({ snapshot }: { snapshot: LargeScreenSnapshot }) {
  const results = snapshot.results;
  if (!results) return <p className={styles.empty}>还没有已阅完的作业成绩</p>;
  return <Results results={results} />;
}

function Results({ results }: { results: ScreenResults }) {
  const [fontSize, setFontSize] = useState(chartFontSize);
  useEffect(() => {
    const resize = () => setFontSize(chartFontSize());
    window.addEventListener('resize', resize);
    return () => window.removeEventListener('resize', resize);
  }, []);
  const charts = useResultCharts(results, fontSize);
  return (
    <div className={styles.results}>
      <header className={styles.resultsHeader}>
        <span className={styles.subject}>{results.homework.subjectName}</span>
        <span className={styles.cardTitle}>{results.homework.title}</span>
        <span className={styles.muted}>{results.homework.date}</span>
        <span
          className={styles.gradeRate}
          title={`年级得分率 = 平均分 / 满分，参考人数 ${results.grade.participants} / 在册 ${results.grade.enrolled}`}
        >
          年级得分率 <b data-testid="grade-rate">{rateText(results.grade.scoreRate)}</b>
          <small>
            参考 {results.grade.participants} / {results.grade.enrolled} 人
          </small>
        </span>
      </header>
      <section className={`${styles.card} ${styles.chartCard}`}>
        <h3 className={styles.subheading}>班级得分率对比</h3>
        <div className={styles.chartBox}>
          <ScreenChart option={charts.rates} label="班级得分率对比" />
        </div>
      </section>
      <section className={`${styles.card} ${styles.chartCard}`}>
        <h3 className={styles.subheading}>等级分布（人数）</h3>
        <div className={styles.chartBox}>
          <ScreenChart option={charts.bands} label="各班等级分布" />
        </div>
      </section>
      <section className={`${styles.card} ${styles.sideCard}`}>
        <h3 className={styles.subheading}>失分最多的题</h3>
        {results.mostMissed.map((q) => (
          <div key={q.no} className={styles.teacherRow}>
            <span>第 {q.no} 题</span>
            <span className={styles.num}>得分率 {rateText(q.scoreRate)}</span>
          </div>
        ))}
        <h3 className={styles.subheading}>进步最大的班级</h3>
        {results.mostImproved ? (
          <p className={styles.improved}>
            <b>{results.mostImproved.name}</b> 与年级得分率之差提高 {(results.mostImproved.delta * 100).toFixed(1)} 个百分点
            <small>（与《{results.mostImproved.previousTitle}》相比）</small>
          </p>
        ) : (
          <p className={styles.muted}>暂无可比较的上一份作业</p>
        )}
      </section>
      <section className={`${styles.card} ${styles.chartCard} ${styles.heatCard}`}>
        <h3 className={styles.subheading} title="掌握度 = 得分之和 / 满分之和（该知识点的题目，参考学生）；少于 3 道题为数据不足">
          知识点掌握度（%，近 {results.heatmapHomeworkCount} 份{results.homework.subjectName}作业，最弱的知识点在上）
        </h3>
        <div className={styles.chartBox}>
          {results.heatmap.length > 0 ? (
            <ScreenChart option={charts.heat} label="知识点掌握度热力图" />
          ) : (
            <p className={styles.muted}>数据不足</p>
          )}
        </div>
      </section>
      {results.topStudents ? (
        <section className={styles.card}>
          <h3 className={styles.subheading}>优秀学生</h3>
          {results.topStudents.map((s) => (
            <div key={`${s.className}-${s.name}`} className={styles.teacherRow}>
              <span>
                {s.className} {s.name}
              </span>
              <span className={styles.num}>{rateText(s.scoreRate)}</span>
            </div>
          ))}
        </section>
      ) : null}
    </div>
  );
}
