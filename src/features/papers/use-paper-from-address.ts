/**
 * Opens a saved paper in the 试题篮 when /edit is reached with `?paperId=` (edit it in place) or
 * `?copyFrom=` (a new paper starting from it). The address is cleared once the paper is loaded, so a
 * reload keeps the teacher's later changes (the basket persists) instead of loading the paper again.
 */
import { Modal, Toast } from '@douyinfe/semi-ui-19';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { parsePositiveId } from '../../shared/lib/query-param';
import { useBasketStore } from './basket.store';
import { fetchPaper } from './papers-api';
import { usePapersServices } from './papers-services';

export function usePaperFromAddress(): void {
  const { http } = usePapersServices();
  const [params, setParams] = useSearchParams();
  const editId = parsePositiveId(params.get('paperId'));
  const copyId = parsePositiveId(params.get('copyFrom'));
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
        if (!holdsOtherWork) return open();
        Modal.confirm({
          title: '替换试题篮中的内容？',
          content: `试题篮中还有未保存的组卷内容，打开「${paper.title}」会替换它们。`,
          okText: '替换',
          cancelText: '保留当前内容',
          // Semi names these buttons "confirm" and "cancel" for screen readers; say it in Chinese.
          okButtonProps: { 'aria-label': '替换' },
          cancelButtonProps: { 'aria-label': '保留当前内容' },
          onOk: open,
          onCancel: () => setParams({}, { replace: true }),
        });
      },
      () => !cancelled && setParams({}, { replace: true }),
    );
    return () => {
      cancelled = true;
    };
  }, [http, editId, copyId, setParams]);
}
