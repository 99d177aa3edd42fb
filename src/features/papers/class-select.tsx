/**
 * A picker of the classes of the user's default school year, loaded once per school year. Also used with
 * `multiple` to assign homework to several classes.
 */
import type { CSSProperties } from 'react';
import type { ClassItem } from '../../shared/contract/system';
import { fetchClasses } from './papers-api';
import { usePapersServices } from './papers-services';
import { useRemote } from '../../shared/ui/use-remote';
import { LabelledSelect } from '../../shared/ui/labelled-select';

/** The classes of a school year (by default the user's); empty without a school or school year. */
export function useClasses(forSchoolYearId?: number | null): { classes: ClassItem[]; loading: boolean } {
  const { http, user } = usePapersServices();
  const { orgId } = user;
  const schoolYearId = forSchoolYearId ?? user.schoolYearId;
  const remote = useRemote(orgId && schoolYearId ? `classes:${orgId}:${schoolYearId}` : null, () =>
    fetchClasses(http, orgId ?? 0, schoolYearId ?? 0),
  );
  return { classes: remote.data ?? [], loading: remote.loading };
}

type SingleProps = { multiple?: false; value: number | undefined; onChange: (value: number | undefined) => void };
type MultipleProps = { multiple: true; value: number[]; onChange: (value: number[]) => void };

type CommonProps = { style?: CSSProperties; label?: string; showClear?: boolean; schoolYearId?: number | null };

export function ClassSelect(props: (SingleProps | MultipleProps) & CommonProps) {
  const { classes, loading } = useClasses(props.schoolYearId);
  const optionList = classes.map((c) => ({ value: c.id, label: c.name }));
  const common = {
    label: props.label ?? '班级',
    placeholder: '请选择班级',
    loading,
    optionList,
    style: props.style ?? { width: 180 },
    emptyContent: '当前学年暂无班级',
  };
  if (props.multiple) {
    return (
      <LabelledSelect
        {...common}
        multiple
        maxTagCount={3}
        value={props.value}
        onChange={(value) => props.onChange((value as number[] | undefined) ?? [])}
      />
    );
  }
  return (
    <LabelledSelect
      {...common}
      showClear={props.showClear}
      value={props.value}
      onChange={(value) => props.onChange(value === undefined || value === null ? undefined : Number(value))}
    />
  );
}
