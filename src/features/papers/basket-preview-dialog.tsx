/**
 * 试卷预览 on /edit: the basket laid out as the printed paper, in Semi's Modal. Loaded right after the
 * page shows (lazy-part.tsx) rather than with it, with the paper view and its typeset rich text.
 */
import { Modal } from '@douyinfe/semi-ui-19';
import type { BasketSection } from './basket.store';
import styles from './compose.module.css';
import { PaperView, paperViewFromBasket } from './paper-view';

export function BasketPreviewDialog({
  visible,
  title,
  subjectName,
  sections,
  paperSize,
  onClose,
}: {
  visible: boolean;
  title: string;
  subjectName: string;
  sections: BasketSection[];
  paperSize: string;
  onClose: () => void;
}) {
  return (
    <Modal
      title="试卷预览"
      visible={visible}
      onCancel={onClose}
      footer={null}
      width="min(96vw, 900px)"
      bodyStyle={{ maxHeight: '75vh', overflow: 'auto', background: '#e9ecf1', padding: 16 }}
    >
      <div className={styles.previewSheet} data-paper-size={paperSize}>
        <PaperView model={paperViewFromBasket(title, subjectName, sections)} />
      </div>
    </Modal>
  );
}
