/**
 * 错因设置 (creators and admins): the school's error causes offered on /write and in the book, and the
 * line under which a hand-marked answer counts as wrong.
 */
import { Button, Input, Modal, Toast, Typography } from '@douyinfe/semi-ui-19';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { MAX_CAUSE_LENGTH, MAX_ERROR_CAUSES, rehearseSettingsSchema } from '../../shared/contract/rehearse';
import { useRehearseServices } from './rehearse-services';

export function CauseSettings({ causes, percent }: { causes: string[]; percent: number }) {
  const { http } = useRehearseServices();
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [list, setList] = useState(causes);
  const [line, setLine] = useState(percent);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    try {
      await http.putJson('/api/rehearse/settings', { errorCauses: list, subjectiveWrongPercent: line }, rehearseSettingsSchema);
      Toast.success('错因设置已保存');
      setOpen(false);
      await client.invalidateQueries({ queryKey: ['rehearse'] });
    } finally {
      setSaving(false);
    }
  };
  return (
    <>
      <Button
        onClick={() => {
          setList(causes);
          setLine(percent);
          setOpen(true);
        }}
      >
        错因设置
      </Button>
      <Modal
        title="错因设置"
        visible={open}
        onCancel={() => setOpen(false)}
        onOk={() => void save()}
        confirmLoading={saving}
        okText="保存"
      >
        <Typography.Paragraph>
          阅卷时可选的错因（用顿号“、”分隔，最多 {MAX_ERROR_CAUSES} 个，每个不超过 {MAX_CAUSE_LENGTH} 个字）：
        </Typography.Paragraph>
        <Input
          aria-label="错因"
          value={list.join('、')}
          onChange={(value) =>
            setList(
              value
                .split(/[、,，\s]+/)
                .map((v) => v.slice(0, MAX_CAUSE_LENGTH))
                .filter(Boolean)
                .slice(0, MAX_ERROR_CAUSES),
            )
          }
        />
        <Typography.Paragraph style={{ marginTop: 16 }}>
          主观题（填空、解答）得分低于满分的
          <Input
            aria-label="主观题错题线"
            type="number"
            min={1}
            max={100}
            value={String(line)}
            onChange={(v) => setLine(Math.min(100, Math.max(1, Math.round(Number(v)) || 100)))}
            style={{ width: 90, margin: '0 6px', display: 'inline-flex' }}
          />
          % 时记为错题（100 即未得满分）。
        </Typography.Paragraph>
      </Modal>
    </>
  );
}
