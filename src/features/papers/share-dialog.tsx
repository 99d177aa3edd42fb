/**
 * 共享到校本资料: the owner files a paper of theirs under a chapter of its subject (or none) in the school's
 * shared library, where colleagues find, preview and copy it.
 */
import { Modal, Toast, Typography } from '@douyinfe/semi-ui-19';
import { useState } from 'react';
import type { PaperSummary } from '../../shared/contract/papers';
import { FilingChapterSelect } from './filing-chapter-select';
import { sharePaper } from './materials-api';
import { usePapersServices } from './papers-services';

export function ShareDialog({
  paper,
  onClose,
  onShared,
}: {
  paper: PaperSummary | null;
  onClose: () => void;
  onShared: () => void;
}) {
  const { http } = usePapersServices();
  const [chapterId, setChapterId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    setChapterId(null);
    onClose();
  };

  const share = async () => {
    if (!paper) return;
    setBusy(true);
    try {
      await sharePaper(http, paper.id, { chapterId });
      Toast.success(`「${paper.title}」已共享到校本资料`);
      setChapterId(null);
      onShared();
    } catch {
      // Shown by the client.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title="共享到校本资料"
      visible={paper !== null}
      width="min(94vw, 480px)"
      onCancel={close}
      onOk={() => void share()}
      okText="共享"
      cancelText="取消"
      okButtonProps={{ loading: busy }}
    >
      {paper ? (
        <>
          <Typography.Paragraph>
            {`「${paper.title}」（${paper.subject.name} · ${paper.schoolYear.name}）共享后，本校老师都能在校本资料中预览并复制它；你可以随时撤回。`}
          </Typography.Paragraph>
          <FilingChapterSelect subjectId={paper.subject.id} value={chapterId} onChange={setChapterId} style={{ marginTop: 8 }} />
        </>
      ) : null}
    </Modal>
  );
}
