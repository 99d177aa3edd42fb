import { Select } from '@douyinfe/semi-ui-19';
import { useMachine } from '@xstate/react';
import { useEffect } from 'react';
import { usePortalServices } from './portal-services';
import { NO_SCHOOL_YEAR, useCurrentSchoolYear } from './use-current-school-year';

/**
 * The 180px school-year dropdown: opening it loads the list, choosing one saves it and reloads. Loaded by
 * SchoolYearPicker when the teacher reaches for it; `open` when it was a click, which opens it at once.
 */
export function SchoolYearSelect({ open = false }: { open?: boolean }) {
  const { schoolYearMachine } = usePortalServices();
  const { orgId, schoolYear } = useCurrentSchoolYear();
  const [snapshot, send] = useMachine(schoolYearMachine, { input: { orgId, current: schoolYear } });
  // The machine reads its input once: a school year renamed by 升年级, or a school created or switched
  // while the page is open, is handed to it (it ignores what it already shows).
  const yearId = schoolYear?.id ?? null;
  const yearName = schoolYear?.name ?? null;
  useEffect(() => {
    const current = yearId === null ? null : { id: yearId, name: yearName ?? String(yearId) };
    send({ type: 'schoolYear.externallyChanged', orgId, current });
  }, [send, orgId, yearId, yearName]);
  useEffect(() => {
    if (open) send({ type: 'dropdown.opened' });
  }, [open, send]);
  const { list, current } = snapshot.context;
  const options = (list.length ? list : current ? [current] : []).map((item) => ({ value: item.id, label: item.name }));

  // In the picker's 选择学年 group.
  return (
    <Select
      style={{ width: 180 }}
      defaultOpen={open}
      autoFocus={open}
      placeholder={NO_SCHOOL_YEAR}
      value={current?.id}
      optionList={options}
      loading={snapshot.matches('loading') || snapshot.matches('saving')}
      disabled={snapshot.matches('saving') || snapshot.matches('saved')}
      emptyContent={snapshot.matches('failed') ? '学年加载失败，请重试' : orgId === null ? '请先加入学校' : '暂无学年'}
      onDropdownVisibleChange={(visible) => {
        if (visible) send({ type: 'dropdown.opened' });
      }}
      onChange={(value) => send({ type: 'schoolYear.selected', id: Number(value) })}
    />
  );
}
