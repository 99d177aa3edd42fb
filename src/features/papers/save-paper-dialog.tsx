/**
 * 保存试卷 and 布置作业: first the paper's title, school year and paper size (a new paper, or an update
 * of the one being edited), then the classes and dates of the homework. Reports each step's result.
 */
import { Banner, Button, Input, Modal, Radio, RadioGroup, Space, Toast, Typography } from '@douyinfe/semi-ui-19';
import { useState } from 'react';
import type { Homework, PaperDetail, PaperSize } from '../../shared/contract/papers';
import { AssignHomeworkFields, assignRequest, useAssignValues } from './assign-homework-fields';
import { basketToPaperInput, useBasketStore } from './basket.store';
import styles from './compose.module.css';
import { createHomework, createPaper, fetchSchoolYears, updatePaper } from './papers-api';
import { usePapersServices } from './papers-services';
import { useRemote } from '../../shared/ui/use-remote';
import { LabelledSelect } from '../../shared/ui/labelled-select';

export function SavePaperDialog({
  visible,
  subjectName,
  onClose,
  onAssigned,
}: {
  visible: boolean;
  subjectName: string;
  onClose: () => void;
  onAssigned: (homework: Homework) => void;
}) {
  const { http, user } = usePapersServices();
  const basket = useBasketStore();
  const [schoolYearId, setSchoolYearId] = useState<number | null>(user.schoolYearId);
  const [saved, setSaved] = useState<PaperDetail | null>(null);
  const [assignValues, setAssignValues] = useAssignValues();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const schoolYears = useRemote(user.orgId ? `school-years:${user.orgId}` : null, () => fetchSchoolYears(http, user.orgId ?? 0));

  const close = () => {
    setSaved(null);
    setError('');
    onClose();
  };

  const save = async () => {
    if (!basket.title.trim()) return setError('请输入试卷标题');
    if (!schoolYearId) return setError('请选择学年');
    if (basket.sections.some((s) => !s.title.trim())) return setError('大题标题不能为空');
    setError('');
    setBusy(true);
    try {
      const input = basketToPaperInput(basket, schoolYearId);
      const paper = basket.paperId ? await updatePaper(http, basket.paperId, input) : await createPaper(http, input);
      useBasketStore.setState({ paperId: paper.id });
      setSaved(paper);
      Toast.success('试卷已保存');
    } catch {
      // Shown by the client.
    } finally {
      setBusy(false);
    }
  };

  const assign = async () => {
    if (!saved) return;
    const request = assignRequest(saved.id, assignValues);
    if (typeof request === 'string') return setError(request);
    setError('');
    setBusy(true);
    try {
      const homework = await createHomework(http, request);
      Toast.success('作业已布置');
      setSaved(null);
      onAssigned(homework);
    } catch {
      // Shown by the client.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title={saved ? '布置作业' : '保存试卷'}
      visible={visible}
      onCancel={close}
      width="min(560px, calc(100vw - 24px))"
      footer={
        saved ? (
          <Space>
            <Button onClick={close}>暂不布置</Button>
            <Button theme="solid" loading={busy} onClick={assign}>
              布置作业
            </Button>
          </Space>
        ) : (
          <Space>
            <Button onClick={close}>取消</Button>
            <Button theme="solid" loading={busy} onClick={save}>
              保存
            </Button>
          </Space>
        )
      }
    >
      {error ? (
        <Banner type="danger" fullMode={false} closeIcon={null} description={error} className={styles.dialogError} />
      ) : null}
      {saved ? (
        <div className={styles.dialogForm}>
          <Typography.Paragraph>
            {`试卷「${saved.title}」已保存（共 ${saved.questionCount} 题，满分 ${saved.totalScore} 分）。选择班级和日期，把它布置为作业：`}
          </Typography.Paragraph>
          <AssignHomeworkFields paperId={saved.id} values={assignValues} onChange={setAssignValues} />
        </div>
      ) : (
        <div className={styles.dialogForm}>
          <label className={styles.field}>
            <span>试卷标题</span>
            <Input
              aria-label="试卷标题"
              value={basket.title}
              maxLength={60}
              placeholder="例如：第一章 有理数 单元测试"
              onChange={(title) => basket.setMeta({ title })}
            />
          </label>
          <div className={styles.field}>
            <span>学科</span>
            <Typography.Text>{subjectName}</Typography.Text>
          </div>
          <label className={styles.field}>
            <span>学年</span>
            <LabelledSelect
              label="学年"
              placeholder="请选择学年"
              value={schoolYearId ?? undefined}
              loading={schoolYears.loading}
              optionList={(schoolYears.data ?? []).map((y) => ({ value: y.id, label: y.name }))}
              onChange={(value) => setSchoolYearId(Number(value) || null)}
              style={{ width: '100%' }}
            />
          </label>
          <div className={styles.field}>
            <span>纸张</span>
            <RadioGroup
              aria-label="纸张大小"
              value={basket.paperSize}
              onChange={(event) => basket.setMeta({ paperSize: event.target.value as PaperSize })}
            >
              <Radio value="A4">A4</Radio>
              <Radio value="A3">A3</Radio>
            </RadioGroup>
          </div>
        </div>
      )}
    </Modal>
  );
}
