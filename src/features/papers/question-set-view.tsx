/**
 * One 题目合集 opened from 校本资料: its name, who made it and when, its description, and its questions
 * typeset as the question bank shows them (formulas by KaTeX), with the answers on request. Offers
 * 用此合集组卷 and 复制到我的题目合集; the owner and admins also take questions out of it.
 */
import { Button, Empty, Modal, Spin, Typography } from '@douyinfe/semi-ui-19';
import { useState } from 'react';
import type { QuestionSetDetail, QuestionSetSummary } from '../../shared/contract/question-sets';
import { formatDate } from '../../shared/lib/format-date';
import { useRemote } from '../../shared/ui/use-remote';
import styles from './compose.module.css';
import { usePapersServices } from './papers-services';
import { QuestionItem } from './question-item';
import { fetchQuestionSet, updateQuestionSet } from './question-sets-api';

/** 「王老师 · 2026-11-21 共享」 or, unshared, 「王老师 · 2026-11-21 创建」. */
export function setByline(set: QuestionSetSummary) {
  const who = set.createdBy?.name ?? '已注销的账号';
  return set.sharedAt ? `${who} · ${formatDate(set.sharedAt)} 共享` : `${who} · ${formatDate(set.createdAt)} 创建`;
}

export function QuestionSetView({
  setId,
  onClose,
  onCompose,
  onCopy,
  onChanged,
}: {
  setId: number | null;
  onClose: () => void;
  onCompose: (set: QuestionSetSummary) => void;
  onCopy: (set: QuestionSetSummary) => void;
  /** After a question was taken out (the list's counts change). */
  onChanged: () => void;
}) {
  const { http } = usePapersServices();
  const detail = useRemote(setId === null ? null : `question-set:${setId}`, () => fetchQuestionSet(http, setId!));
  const [removing, setRemoving] = useState<number | null>(null);
  const set = detail.data && detail.data.id === setId ? detail.data : undefined;

  const takeOut = async (current: QuestionSetDetail, questionId: number) => {
    setRemoving(questionId);
    try {
      await updateQuestionSet(http, current.id, {
        name: current.name,
        subjectId: current.subject.id,
        schoolYearId: current.schoolYear.id,
        chapterId: current.chapter?.id ?? null,
        description: current.description,
        questionIds: current.questions.map((q) => q.id).filter((id) => id !== questionId),
      });
      detail.reload();
      onChanged();
    } catch {
      // Shown by the client.
    } finally {
      setRemoving(null);
    }
  };

  return (
    <Modal
      title={set ? `题目合集：${set.name}` : '题目合集'}
      visible={setId !== null}
      onCancel={onClose}
      width="min(96vw, 900px)"
      bodyStyle={{ maxHeight: '70vh', overflow: 'auto' }}
      footer={
        set ? (
          <>
            <Button onClick={() => onCopy(set)}>复制到我的题目合集</Button>
            <Button theme="solid" onClick={() => onCompose(set)}>
              用此合集组卷
            </Button>
          </>
        ) : null
      }
    >
      {!set ? (
        <Spin />
      ) : (
        <>
          <Typography.Paragraph type="tertiary" style={{ marginBottom: 8 }}>
            {`${set.subject.name} · ${set.schoolYear.name}${set.chapter ? ` · ${set.chapter.name}` : ''} · 共 ${set.questionCount} 题 · ${setByline(set)}`}
          </Typography.Paragraph>
          {set.description ? <Typography.Paragraph>{set.description}</Typography.Paragraph> : null}
          {set.questions.length === 0 ? (
            <Empty title="合集中的题目已被删除" />
          ) : (
            <div className={styles.questionList}>
              {set.questions.map((question, i) => (
                <QuestionItem
                  key={question.id}
                  index={i + 1}
                  question={question}
                  actions={
                    set.canEdit && set.questions.length > 1 ? (
                      <Button
                        size="small"
                        theme="borderless"
                        type="danger"
                        loading={removing === question.id}
                        aria-label={`移出合集：第 ${i + 1} 题`}
                        onClick={() => void takeOut(set, question.id)}
                      >
                        移出合集
                      </Button>
                    ) : null
                  }
                />
              ))}
            </div>
          )}
        </>
      )}
    </Modal>
  );
}
