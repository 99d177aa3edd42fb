/**
 * The filter row of the analysis pages: 学年, 学科, 班级 / 作业 (when the page has them), 时间范围, and a
 * page's own filters after them (学生学情's 学生).
 */
import type { ReactNode } from 'react';
import type { AnalysisOptions } from '../../shared/contract/analysis';
import { DateRangeFilter } from '../../shared/ui/lazy-date-picker';
import { LabelledSelect } from '../../shared/ui/labelled-select';
import styles from './analysis.module.css';
import type { AnalysisFilters } from './use-analysis-filters';

export function AnalysisFilterBar({
  options,
  filters,
  update,
  show,
  extra,
}: {
  options: AnalysisOptions;
  filters: AnalysisFilters;
  update: (changes: Partial<Record<keyof AnalysisFilters, number | string | null>>) => void;
  show: { classes?: boolean; homework?: boolean; range?: boolean; subject?: boolean };
  extra?: ReactNode;
}) {
  const classes = options.classes.filter((c) => c.schoolYearId === filters.schoolYearId);
  const homework = options.homework.filter((h) => h.schoolYearId === filters.schoolYearId && h.subjectId === filters.subjectId);
  return (
    <div className={`${styles.filters} ${styles.noPrint}`}>
      <LabelledSelect
        label="学年"
        prefix="学年"
        value={filters.schoolYearId ?? undefined}
        optionList={options.schoolYears.map((y) => ({ value: y.id, label: y.name }))}
        onChange={(value) => update({ schoolYearId: value as number, classId: null, homeworkId: null, studentId: null })}
      />
      {show.subject !== false ? (
        <LabelledSelect
          label="学科"
          prefix="学科"
          value={filters.subjectId ?? undefined}
          optionList={options.subjects.map((s) => ({ value: s.id, label: s.name }))}
          onChange={(value) => update({ subjectId: value as number, homeworkId: null })}
        />
      ) : null}
      {show.classes ? (
        <LabelledSelect
          label="班级"
          prefix="班级"
          value={filters.classId ?? undefined}
          optionList={classes.map((c) => ({ value: c.id, label: c.name }))}
          onChange={(value) => update({ classId: value as number, studentId: null })}
        />
      ) : null}
      {show.homework ? (
        <LabelledSelect
          label="作业"
          prefix="作业"
          style={{ minWidth: 240 }}
          filter
          value={filters.homeworkId ?? undefined}
          emptyContent="暂无作业"
          optionList={homework.map((h) => ({ value: h.id, label: `${h.title}（${h.startDate}）` }))}
          onChange={(value) => update({ homeworkId: value as number })}
        />
      ) : null}
      {show.range ? <DateRangeFilter from={filters.from} to={filters.to} onChange={(from, to) => update({ from, to })} /> : null}
      {extra}
    </div>
  );
}
