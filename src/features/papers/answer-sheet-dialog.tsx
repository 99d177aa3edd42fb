/**
 * 打印答题卡 for one homework: one generic sheet for the class, or one sheet per student with the
 * student's name and code; opened as a PDF in a new tab or saved as a file.
 */
import { Banner, Button, Modal, Radio, RadioGroup, Space, Typography } from '@douyinfe/semi-ui-19';
import { useState } from 'react';
import type { Homework } from '../../shared/contract/papers';
import styles from './compose.module.css';
import { downloadAnswerSheetPdf, fetchAnswerSheetPdf } from './papers-api';
import { usePapersServices } from './papers-services';
import { LabelledSelect } from '../../shared/ui/labelled-select';

/** The printer calibration page (打印测试; the path is the spec route table's). */
const PRINT_CALIBRATION_PATH = '/pringtingtest';

type Mode = 'class' | 'student';

export function AnswerSheetDialog({ homework, onClose }: { homework: Homework | null; onClose: () => void }) {
  const { http, renderAnswerSheetPreview } = usePapersServices();
  const [mode, setMode] = useState<Mode>('class');
  const [chosenClassId, setClassId] = useState<number | undefined>();
  const classId = chosenClassId ?? homework?.classes[0]?.id;
  const [busy, setBusy] = useState<'open' | 'download' | null>(null);
  const [error, setError] = useState('');
  const query = mode === 'student' ? { mode, classId } : { mode };

  const check = (): boolean => {
    if (mode === 'student' && !classId) {
      setError('按学生打印时必须选择班级');
      return false;
    }
    setError('');
    return true;
  };

  const open = async () => {
    if (!homework || !check()) return;
    // Open the tab inside the click, or the browser blocks it; the PDF arrives a moment later.
    const tab = window.open('', '_blank');
    setBusy('open');
    try {
      const blob = await fetchAnswerSheetPdf(http, homework.id, query);
      const url = URL.createObjectURL(blob);
      if (tab) tab.location.href = url;
      else window.location.assign(url);
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch {
      tab?.close();
    } finally {
      setBusy(null);
    }
  };

  const download = async () => {
    if (!homework || !check()) return;
    setBusy('download');
    try {
      await downloadAnswerSheetPdf(http, homework.id, homework.title, query);
    } catch {
      // Shown by the client.
    } finally {
      setBusy(null);
    }
  };

  return (
    <Modal
      title="打印答题卡"
      visible={homework !== null}
      onCancel={() => {
        setClassId(undefined);
        setError('');
        onClose();
      }}
      width={renderAnswerSheetPreview ? 860 : 520}
      // The preview is a whole page: it scrolls inside the dialog, so the buttons stay on screen (1440x900).
      centered
      bodyStyle={{ maxHeight: 'calc(100vh - 180px)', overflowY: 'auto' }}
      footer={
        <Space>
          <Button loading={busy === 'open'} onClick={() => void open()}>
            在新标签页打开
          </Button>
          <Button theme="solid" loading={busy === 'download'} onClick={() => void download()}>
            下载 PDF
          </Button>
        </Space>
      }
    >
      {error ? (
        <Banner type="danger" fullMode={false} closeIcon={null} description={error} className={styles.dialogError} />
      ) : null}
      <div className={renderAnswerSheetPreview ? styles.answerSheetLayout : undefined}>
        <div className={styles.dialogForm}>
          <Typography.Text>{homework ? `${homework.title}（${homework.paperSize}）` : ''}</Typography.Text>
          <div className={styles.field}>
            <span>打印方式</span>
            <RadioGroup aria-label="打印方式" value={mode} onChange={(event) => setMode(event.target.value as Mode)}>
              <Radio value="class">通用答题卡</Radio>
              <Radio value="student">每位学生一张</Radio>
            </RadioGroup>
          </div>
          {mode === 'student' ? (
            <label className={styles.field}>
              <span>班级</span>
              <LabelledSelect
                label="答题卡班级"
                placeholder="请选择班级"
                value={classId}
                optionList={(homework?.classes ?? []).map((c) => ({ value: c.id, label: c.name }))}
                onChange={(value) => setClassId(value ? Number(value) : undefined)}
              />
            </label>
          ) : null}
          <Typography.Text type="tertiary" size="small">
            打印前建议先用
            {/* A new tab, so the print choices made here stay. */}
            <a href={PRINT_CALIBRATION_PATH} target="_blank" rel="noreferrer">
              “打印测试”页
            </a>
            检查打印机比例，打印时请选择“实际大小”。
          </Typography.Text>
        </div>
        {homework && renderAnswerSheetPreview ? renderAnswerSheetPreview(homework.id) : null}
      </div>
    </Modal>
  );
}
