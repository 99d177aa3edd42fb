/**
 * 所属章节 of something filed in 校本资料 (a shared paper, a question set): one chapter of its subject,
 * shown by its path, or none. The subject's chapters are fetched (and cached) by subject.
 */
import type { CSSProperties } from 'react';
import { useRemote } from '../../shared/ui/use-remote';
import { LabelledSelect } from '../../shared/ui/labelled-select';
import { fetchChapters } from './papers-api';
import { usePapersServices } from './papers-services';
import { toPathOptions } from './tree-data';

export function FilingChapterSelect({
  subjectId,
  value,
  onChange,
  style,
}: {
  subjectId: number | null;
  value: number | null;
  onChange: (chapterId: number | null) => void;
  style?: CSSProperties;
}) {
  const { http } = usePapersServices();
  const chapters = useRemote(subjectId === null ? null : `chapters:${subjectId}`, () => fetchChapters(http, subjectId!));
  return (
    <LabelledSelect
      label="所属章节"
      placeholder="所属章节（可不选）"
      showClear
      filter
      optionList={toPathOptions(chapters.data ?? [])}
      value={value ?? undefined}
      onChange={(next) => onChange(typeof next === 'number' ? next : null)}
      style={{ width: '100%', ...style }}
    />
  );
}
