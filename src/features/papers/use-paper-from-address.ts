/**
 * Opens a saved paper in the 试题篮 when /edit is reached with `?paperId=` (edit it in place) or
 * `?copyFrom=` (a new paper starting from it), or a 题目合集's questions with `?questionSet=` (用此合集组卷:
 * a new paper named after the set). The address is cleared once loaded, so a reload keeps the teacher's
 * later changes (the basket persists) instead of loading it again.
 */
import { Toast } from '@douyinfe/semi-ui-19';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { parsePositiveId } from '../../shared/lib/query-param';
import { confirmLater } from '../../shared/ui/lazy-confirm';
import { useBasketStore } from './basket.store';
import { fetchPaper } from './papers-api';
import { fetchQuestionSet } from './question-sets-api';
import { usePapersServices } from './papers-services';

export function usePaperFromAddress(): void {
  const { http } = usePapersServices();
  const [params, setParams] = useSearchParams();
  const editId = parsePositiveId(params.get('paperId'));
  const copyId = parsePositiveId(params.get('copyFrom'));
  const setId = parsePositiveId(params.get('questionSet'));
  useEffect(() => {
    if (setId === null || editId !== null || copyId !== null) return;
    let cancelled = false;
    fetchQuestionSet(http, setId).then(
      (set) => {
        if (cancelled) return;
        const open = () => {
          const basket = useBasketStore.getState();
          basket.clear();
          basket.setMeta({ subjectId: set.subject.id, title: set.name });
          for (const question of set.questions) useBasketStore.getState().add(question);
          Toast.success(`已把题目合集「${set.name}」的 ${set.questions.length} 道题放入试题篮，设置分值后保存为新试卷`);
          setParams({}, { replace: true });
        };
        confirmReplace(set.name, useBasketStore.getState().sections.length > 0, open, () => setParams({}, { replace: true }));
      },
      () => !cancelled && setParams({}, { replace: true }),
    );
    return () => {
      cancelled = true;
    };
  }, [http, setId, editId, copyId, setParams]);
  useEffect(() => {
    const id = editId ?? copyId;
    if (id === null) return;
    let cancelled = false;
    fetchPaper(http, id).then(
      (paper) => {
        if (cancelled) return;
        const copy = editId === null;
        const open = () => {
          useBasketStore.getState().load(copy ? { ...paper, title: `${paper.title}（副本）` } : paper, copy ? null : id);
          Toast.success(copy ? `已把「${paper.title}」复制到试题篮，保存后成为新试卷` : `正在编辑「${paper.title}」`);
          setParams({}, { replace: true });
        };
        const basket = useBasketStore.getState();
        // The basket keeps unsaved work across visits: never replace it without asking.
        const holdsOtherWork = basket.sections.length > 0 && (copy || basket.paperId !== id);
        confirmReplace(paper.title, holdsOtherWork, open, () => setParams({}, { replace: true }));
      },
      () => !cancelled && setParams({}, { replace: true }),
    );
    return () => {
      cancelled = true;
    };
  }, [http, editId, copyId, setParams]);
}

/** Opens at once, or first asks before replacing unsaved work in the basket. */
function confirmReplace(title: string, holdsOtherWork: boolean, open: () => void, keep: () => void) {
  if (!holdsOtherWork) return open();
  confirmLater({
    title: '替换试题篮中的内容？',
    content: `试题篮中还有未保存的组卷内容，打开「${title}」会替换它们。`,
    okText: '替换',
    cancelText: '保留当前内容',
    // Semi names these buttons "confirm" and "cancel" for screen readers; say it in Chinese.
    okButtonProps: { 'aria-label': '替换' },
    cancelButtonProps: { 'aria-label': '保留当前内容' },
    onOk: open,
    onCancel: keep,
  });
}
