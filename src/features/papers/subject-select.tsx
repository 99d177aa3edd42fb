/**
 * The 学科 filter of the lists (作业列表, 校本资料's papers and question sets): the school's subjects,
 * loaded once, with 全部学科 as the cleared state. Beside ClassSelect, which does the same for classes.
 */
import type { CSSProperties } from 'react';
import { fetchSubjects } from './papers-api';
import { usePapersServices } from './papers-services';
import { useRemote } from '../../shared/ui/use-remote';
import { LabelledSelect } from '../../shared/ui/labelled-select';

export function SubjectSelect({
  value,
  onChange,
  style,
}: {
  value: number | undefined;
  onChange: (value: number | undefined) => void;
  style?: CSSProperties;
}) {
  const { http } = usePapersServices();
  const subjects = useRemote('subjects', () => fetchSubjects(http));
  return (
    <LabelledSelect
      label="学科"
      placeholder="全部学科"
      showClear
      loading={subjects.loading}
      value={value}
      optionList={(subjects.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
      onChange={(next) => onChange(next ? Number(next) : undefined)}
      style={style ?? { width: 140 }}
    />
  );
}
