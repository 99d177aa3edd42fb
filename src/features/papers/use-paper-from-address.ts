/**
 * Opens a saved paper in the 试题篮 when /edit is reached with `?paperId=` (edit it in place) or
 * `?copyFrom=` (a new paper starting from it). The address is cleared once the paper is loaded, so a
 * reload keeps the teacher's later changes (the basket persists) instead of loading the paper again.
 */
import { Toast } from '@douyinfe/semi-ui-19';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useBasketStore } from './basket.store';
import { fetchPaper } from './papers-api';
import { usePapersServices } from './papers-services';

function positiveId(value: string | null): number | null {
  const id = Number(value);
  return value && Number.isSafeInteger(id) && id > 0 ? id : null;
}

export function usePaperFromAddress(): void {
  const { http } = usePapersServices();
  const [params, setParams] = useSearchParams();
  const editId = positiveId(params.get('paperId'));
  const copyId = positiveId(params.get('copyFrom'));
  useEffect(() => {
    const id = editId ?? copyId;
    if (id === null) return;
    let cancelled = false;
    fetchPaper(http, id).then(
      (paper) => {
        if (cancelled) return;
        const copy = editId === null;
        useBasketStore.getState().load(copy ? { ...paper, title: `${paper.title}（副本）` } : paper, copy ? null : id);
        Toast.success(copy ? `已把「${paper.title}」复制到试题篮，保存后成为新试卷` : `正在编辑「${paper.title}」`);
        setParams({}, { replace: true });
      },
      () => !cancelled && setParams({}, { replace: true }),
    );
    return () => {
      cancelled = true;
    };
  }, [http, editId, copyId, setParams]);
}
