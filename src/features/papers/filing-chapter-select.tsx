/**
 * Where something is filed in 校本资料 (a shared paper, a question set): 所属章节, one chapter of its
 * subject, and for question sets 知识点, one knowledge point; each shown by its path, or none. The
 * subject's tree is fetched (and cached) by subject.
 */
import type { CSSProperties } from 'react';
import { useRemote } from '../../shared/ui/use-remote';
import { LabelledSelect } from '../../shared/ui/labelled-select';
import { fetchChapters, fetchKnowledgePoints } from './papers-api';
import { usePapersServices } from './papers-services';
import { toPathOptions } from './tree-data';

type FilingProps = {
  subjectId: number | null;
  value: number | null;
  onChange: (id: number | null) => void;
  style?: CSSProperties;
  /** Instead of the dialogs' 「…（可不选）」, e.g. a filter's 全部知识点. */
  placeholder?: string;
};

const TREES = {
  chapters: { label: '所属章节', placeholder: '所属章节（可不选）', fetch: fetchChapters },
  knowledgePoints: { label: '知识点', placeholder: '知识点（可不选）', fetch: fetchKnowledgePoints },
} as const;

function FilingTreeSelect({ tree, subjectId, value, onChange, style, placeholder }: FilingProps & { tree: keyof typeof TREES }) {
  const { http } = usePapersServices();
  const { label, fetch } = TREES[tree];
  const nodes = useRemote(subjectId === null ? null : `${tree}:${subjectId}`, () => fetch(http, subjectId!));
  return (
    <LabelledSelect
      label={label}
      placeholder={placeholder ?? TREES[tree].placeholder}
      showClear
      filter
      optionList={toPathOptions(nodes.data ?? [])}
      value={value ?? undefined}
      onChange={(next) => onChange(typeof next === 'number' ? next : null)}
      style={{ width: '100%', ...style }}
    />
  );
}

export const FilingChapterSelect = (props: FilingProps) => <FilingTreeSelect tree="chapters" {...props} />;

export const FilingPointSelect = (props: FilingProps) => <FilingTreeSelect tree="knowledgePoints" {...props} />;
