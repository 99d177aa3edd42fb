/**
 * 错因设置's dialog (creators and admins): the school's error causes offered on /write and in the book, and
 * the line under which a hand-marked answer counts as wrong. Loaded and mounted when its button
 * (cause-settings-button.tsx) is pressed, so each opening starts from the saved settings.
 */
import { Input, Modal, Toast, Typography } from '@douyinfe/semi-ui-19';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { MAX_CAUSE_LENGTH, MAX_ERROR_CAUSES, rehearseSettingsSchema } from '../../shared/contract/rehearse';
import { useRehearseServices } from './rehearse-services';

/** The causes typed in the field: split at 、 (or commas, spaces), each cut to MAX_CAUSE_LENGTH, at most MAX_ERROR_CAUSES. */
const parseCauses = (text: string) =>
  text
    .split(/[、,，\s]+/)
    .map((v) => v.slice(0, MAX_CAUSE_LENGTH))
    .filter(Boolean)
    .slice(0, MAX_ERROR_CAUSES);
const parseLine = (text: string) => Math.min(100, Math.max(1, Math.round(Number(text)) || 100));

// The fields keep what is typed (a trailing 、 before the next cause, an emptied number) and are read on 保存.
export function CauseSettingsDialog({ causes, percent, onClose }: { causes: string[]; percent: number; onClose: () => void }) {
  const { http } = useRehearseServices();
  const client = useQueryClient();
  const [text, setText] = useState(causes.join('、'));
  const [line, setLine] = useState(String(percent));
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    try {
      await http.putJson(
        '/api/rehearse/settings',
        { errorCauses: parseCauses(text), subjectiveWrongPercent: parseLine(line) },
        rehearseSettingsSchema,
      );
      Toast.success('错因设置已保存');
      onClose();
      await client.invalidateQueries({ queryKey: ['rehearse'] });
    } finally {
      setSaving(false);
    }
  };
  return (
    <>
      <Modal title="错因设置" visible onCancel={onClose} onOk={() => void save()} confirmLoading={saving} okText="保存">
        <Typography.Paragraph>
          阅卷时可选的错因（用顿号“、”分隔，最多 {MAX_ERROR_CAUSES} 个，每个不超过 {MAX_CAUSE_LENGTH} 个字）：
        </Typography.Paragraph>
        <Input aria-label="错因" value={text} onChange={setText} onBlur={() => setText(parseCauses(text).join('、'))} />
        <Typography.Paragraph style={{ marginTop: 16 }}>
          主观题（填空、解答）得分低于满分的
          <Input
            aria-label="主观题错题线"
            type="number"
            min={1}
            max={100}
            value={line}
            onChange={setLine}
            onBlur={() => setLine(String(parseLine(line)))}
            style={{ width: 90, margin: '0 6px', display: 'inline-flex' }}
          />
          % 时记为错题（100 即未得满分）。
        </Typography.Paragraph>
      </Modal>
    </>
  );
}
