/**
 * The 学科 / 学年 / 章节 filters of 校本资料 (its papers and its question sets): the school's years, the
 * chosen subject's chapters (a chapter includes its subchapters), 章节 cleared when the subject changes.
 */
import { fetchChapters, fetchSchoolYears } from './papers-api';
import { usePapersServices } from './papers-services';
import { SubjectSelect } from './subject-select';
import { toPathOptions } from './tree-data';
import { useRemote } from '../../shared/ui/use-remote';
import { LabelledSelect } from '../../shared/ui/labelled-select';

export type LibraryFilterValues = { subjectId?: number; schoolYearId?: number; chapterId?: number };

export function LibraryFilters({
  orgId,
  value,
  onChange,
}: {
  orgId: number;
  value: LibraryFilterValues;
  onChange: (next: LibraryFilterValues) => void;
}) {
  const { http } = usePapersServices();
  const { subjectId, schoolYearId, chapterId } = value;
  const years = useRemote(`years:${orgId}`, () => fetchSchoolYears(http, orgId));
  const chapters = useRemote(subjectId ? `chapters:${subjectId}` : null, () => fetchChapters(http, subjectId!));
  return (
    <>
      <SubjectSelect
        value={subjectId}
        onChange={(next) => onChange({ ...value, subjectId: next, chapterId: undefined })}
        style={{ width: 130 }}
      />
      <LabelledSelect
        label="学年"
        placeholder="全部学年"
        showClear
        value={schoolYearId}
        optionList={(years.data ?? []).map((y) => ({ value: y.id, label: y.name }))}
        onChange={(next) => onChange({ ...value, schoolYearId: next ? Number(next) : undefined })}
        style={{ width: 160 }}
      />
      <LabelledSelect
        label="章节"
        placeholder={subjectId ? '全部章节' : '先选学科再选章节'}
        disabled={!subjectId}
        showClear
        filter
        optionList={toPathOptions(chapters.data ?? [])}
        value={chapterId}
        onChange={(next) => onChange({ ...value, chapterId: typeof next === 'number' ? next : undefined })}
        style={{ width: 220 }}
      />
    </>
  );
}
