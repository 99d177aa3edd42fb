/**
 * The homework half of 布置作业: the classes of the paper's school year the teacher may assign it to
 * (asked of the server, which applies the same permission rule when the homework is made) and the start
 * and due dates, with the checks made before asking the server. Used after saving a paper and from 我的试卷.
 */
import { LazyDatePicker as DatePicker } from '../../shared/ui/lazy-date-picker';
import dayjs from 'dayjs';
import { useState } from 'react';
import type { HomeworkCreate } from '../../shared/contract/papers';
import { formatDate } from '../../shared/lib/format-date';
import { LabelledSelect } from '../../shared/ui/labelled-select';
import { useRemote } from '../../shared/ui/use-remote';
import { fetchAssignableClasses } from './papers-api';
import { usePapersServices } from './papers-services';
import styles from './compose.module.css';

export const DEFAULT_HOMEWORK_DAYS = 7;

export type AssignValues = { classIds: number[]; startDate: Date; dueDate: Date };

export function useAssignValues() {
  const [values, setValues] = useState<AssignValues>(() => ({
    classIds: [],
    startDate: dayjs().startOf('day').toDate(),
    dueDate: dayjs().startOf('day').add(DEFAULT_HOMEWORK_DAYS, 'day').toDate(),
  }));
  return [values, setValues] as const;
}

/** The request for `paperId`, or the Chinese reason it cannot be sent yet. */
export function assignRequest(paperId: number, values: AssignValues): HomeworkCreate | string {
  if (values.classIds.length === 0) return '请至少选择一个班级';
  const startDate = formatDate(values.startDate);
  const dueDate = formatDate(values.dueDate);
  if (!startDate || !dueDate) return '请选择开始日期和截止日期';
  if (dueDate < startDate) return '截止日期不能早于开始日期';
  return { paperId, classIds: values.classIds, startDate, dueDate };
}

/** Shown when the teacher has no class of the paper's school year to assign to. */
export const NO_ASSIGNABLE_CLASS = '您在该学年没有可布置的班级（需任教该学科、担任班主任或年级主任）';

export function AssignHomeworkFields({
  paperId,
  values,
  onChange,
}: {
  paperId: number;
  values: AssignValues;
  onChange: (values: AssignValues) => void;
}) {
  const { http } = usePapersServices();
  const remote = useRemote(`assignable:${paperId}`, () => fetchAssignableClasses(http, paperId));
  const classes = remote.data ?? [];
  return (
    <>
      <label className={styles.field}>
        <span>班级</span>
        <LabelledSelect
          label="布置班级"
          placeholder="请选择班级"
          multiple
          maxTagCount={3}
          loading={remote.loading}
          optionList={classes.map((c) => ({ value: c.id, label: c.name }))}
          emptyContent={NO_ASSIGNABLE_CLASS}
          value={values.classIds}
          onChange={(value) => onChange({ ...values, classIds: (value as number[] | undefined) ?? [] })}
          style={{ width: '100%' }}
        />
      </label>
      {remote.data && classes.length === 0 ? <span className={styles.fieldHint}>{NO_ASSIGNABLE_CLASS}</span> : null}
      <label className={styles.field}>
        <span>开始日期</span>
        <DatePicker
          aria-label="开始日期"
          value={values.startDate}
          format="yyyy-MM-dd"
          onChange={(value) => value instanceof Date && onChange({ ...values, startDate: value })}
          style={{ width: '100%' }}
        />
      </label>
      <label className={styles.field}>
        <span>截止日期</span>
        <DatePicker
          aria-label="截止日期"
          value={values.dueDate}
          format="yyyy-MM-dd"
          onChange={(value) => value instanceof Date && onChange({ ...values, dueDate: value })}
          style={{ width: '100%' }}
        />
      </label>
    </>
  );
}
