/**
 * 存为题目合集 / 编辑题目合集: the set's name, school year, chapter and knowledge point (both optional) and
 * description. Made from the 试题篮's questions (with 共享到校本资料 ticked by default), or changing a
 * set the caller may edit (its questions are kept; they are taken out one by one in the set's view).
 */
import { Banner, Checkbox, Input, TextArea, Toast } from '@douyinfe/semi-ui-19';
import { useState } from 'react';
import { MAX_SET_DESCRIPTION, MAX_SET_NAME, type QuestionSetDetail } from '../../shared/contract/question-sets';
import { useRemote } from '../../shared/ui/use-remote';
import { LabelledSelect } from '../../shared/ui/labelled-select';
import { FilingChapterSelect, FilingPointSelect } from './filing-chapter-select';
import { fetchSchoolYears } from './papers-api';
import { usePapersServices } from './papers-services';
import { SaveModal, type TargetFormProps, targetDialog } from './target-dialog';
import { createQuestionSet, updateQuestionSet } from './question-sets-api';

/** What the dialog works on: new questions of a subject, or an existing set. */
export type QuestionSetTarget =
  | { kind: 'create'; subjectId: number; subjectName: string; questionIds: number[]; name: string }
  | { kind: 'edit'; set: QuestionSetDetail };

function QuestionSetForm({ target, onClose, onSaved }: TargetFormProps<QuestionSetTarget, QuestionSetDetail>) {
  const { http, user } = usePapersServices();
  const editing = target.kind === 'edit' ? target.set : null;
  const subjectId = editing ? editing.subject.id : target.kind === 'create' ? target.subjectId : 0;
  const [name, setName] = useState(editing ? editing.name : target.kind === 'create' ? target.name : '');
  const [schoolYearId, setSchoolYearId] = useState<number | null>(editing ? editing.schoolYear.id : user.schoolYearId);
  const [chapterId, setChapterId] = useState<number | null>(editing?.chapter?.id ?? null);
  const [knowledgePointId, setKnowledgePointId] = useState<number | null>(editing?.knowledgePoint?.id ?? null);
  const [description, setDescription] = useState(editing?.description ?? '');
  const [shared, setShared] = useState(true);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const years = useRemote(user.orgId ? `school-years:${user.orgId}` : null, () => fetchSchoolYears(http, user.orgId ?? 0));

  const save = async () => {
    if (!name.trim()) return setError('请输入合集名称');
    if (!schoolYearId) return setError('请选择学年');
    setError('');
    setBusy(true);
    const fields = { name: name.trim(), subjectId, schoolYearId, chapterId, knowledgePointId, description: description.trim() };
    try {
      const set = editing
        ? await updateQuestionSet(http, editing.id, { ...fields, questionIds: editing.questions.map((q) => q.id) })
        : await createQuestionSet(http, {
            ...fields,
            questionIds: target.kind === 'create' ? target.questionIds : [],
            shared,
          });
      Toast.success(
        editing ? '题目合集已保存' : shared ? `「${set.name}」已存为题目合集并共享到校本资料` : `「${set.name}」已存为题目合集`,
      );
      onSaved(set);
    } catch {
      // Shown by the client.
    } finally {
      setBusy(false);
    }
  };

  const count = editing ? editing.questionCount : target.kind === 'create' ? target.questionIds.length : 0;
  const subjectName = editing ? editing.subject.name : target.kind === 'create' ? target.subjectName : '';
  return (
    <SaveModal
      title={editing ? '编辑题目合集' : '存为题目合集'}
      width="min(94vw, 480px)"
      busy={busy}
      onClose={onClose}
      onSave={() => void save()}
    >
      <p style={{ marginTop: 0 }}>{`${subjectName} · 共 ${count} 题`}</p>
      {error ? <Banner type="danger" description={error} closeIcon={null} style={{ marginBottom: 12 }} /> : null}
      <div style={{ display: 'grid', gap: 12 }}>
        <Input
          aria-label="合集名称"
          placeholder="合集名称，如：有理数易错题"
          value={name}
          maxLength={MAX_SET_NAME}
          showClear
          onChange={setName}
        />
        <LabelledSelect
          label="学年"
          placeholder="选择学年"
          value={schoolYearId ?? undefined}
          loading={years.loading}
          optionList={(years.data ?? []).map((y) => ({ value: y.id, label: y.name }))}
          onChange={(value) => setSchoolYearId(value ? Number(value) : null)}
          style={{ width: '100%' }}
        />
        <FilingChapterSelect subjectId={subjectId} value={chapterId} onChange={setChapterId} />
        <FilingPointSelect subjectId={subjectId} value={knowledgePointId} onChange={setKnowledgePointId} />
        <TextArea
          aria-label="合集说明"
          placeholder="说明（可不填）：适用范围、使用建议"
          value={description}
          maxCount={MAX_SET_DESCRIPTION}
          maxLength={MAX_SET_DESCRIPTION}
          autosize={{ minRows: 2, maxRows: 5 }}
          onChange={setDescription}
        />
        {editing ? null : (
          <Checkbox checked={shared} onChange={(event) => setShared(Boolean(event.target.checked))}>
            共享到校本资料（本校老师都能查看和复制）
          </Checkbox>
        )}
      </div>
    </SaveModal>
  );
}

/** Nothing for null; the form afresh for each target. */
export const QuestionSetDialog = targetDialog(QuestionSetForm, (target) =>
  target.kind === 'edit' ? `edit:${target.set.id}` : 'create',
);
