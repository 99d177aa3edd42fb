/**
 * 校本资料's 本校题 tab (`?tab=questions`): the questions the school wrote itself, one subject at a time,
 * searched by their stem. Any teacher of the school writes one (新建本校题); its author and the school's
 * admins (the server's `canEdit`) change or delete it. Saved, it is in the question bank on /edit too,
 * tagged 本校题, for every teacher of the school to compose with.
 */
import { Button, Empty, Modal, Pagination, Spin, Toast, Typography } from '@douyinfe/semi-ui-19';
import { useState } from 'react';
import type { Question, QuestionQuery } from '../../shared/contract/papers';
import { Illustration } from '../../shared/ui/illustration';
import { useRemote } from '../../shared/ui/use-remote';
import compose from './compose.module.css';
import { NameSearch } from './library-parts';
import styles from './pages/paperlist-page.module.css';
import { deleteQuestion, fetchQuestions, fetchSubjects } from './papers-api';
import { usePapersServices } from './papers-services';
import { QuestionEditorDialog, type QuestionEditorTarget } from './question-editor-dialog';
import { QuestionItem } from './question-item';
import { LabelledSelect } from '../../shared/ui/labelled-select';

export const SCHOOL_QUESTION_PAGE_SIZE = 10;

export function SchoolQuestions() {
  const { http } = usePapersServices();
  const subjects = useRemote('subjects', () => fetchSubjects(http));
  const [chosenSubject, setChosenSubject] = useState<number | undefined>();
  // The API lists one subject at a time: the first of the school's until the teacher picks another.
  const subjectId = chosenSubject ?? subjects.data?.[0]?.id;
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<QuestionEditorTarget | null>(null);

  const query: QuestionQuery | null = subjectId
    ? { subjectId, scope: 'own', page, pageSize: SCHOOL_QUESTION_PAGE_SIZE, ...(keyword ? { keyword } : {}) }
    : null;
  const questions = useRemote(query ? `school-questions:${JSON.stringify(query)}` : null, () => fetchQuestions(http, query!));
  const rows = questions.data?.list ?? [];
  const total = questions.data?.total ?? 0;

  const confirmDelete = (question: Question, index: number) =>
    Modal.confirm({
      title: `删除本校题第 ${index} 题？`,
      content: '删除后无法恢复；已被试卷使用的题目不能删除。',
      okText: '删除',
      cancelText: '取消',
      okButtonProps: { type: 'danger' },
      onOk: async () => {
        try {
          await deleteQuestion(http, question.id);
          Toast.success('已删除本校题');
          if (rows.length === 1 && page > 1) setPage(page - 1);
          else questions.reload();
        } catch {
          // Shown by the client.
        }
      },
    });

  return (
    <section aria-label="本校题">
      <div className={styles.filters} role="search" aria-label="筛选本校题">
        <LabelledSelect
          label="学科"
          placeholder="选择学科"
          loading={subjects.loading}
          value={subjectId}
          optionList={(subjects.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
          onChange={(next) => {
            setChosenSubject(next ? Number(next) : undefined);
            setPage(1);
          }}
          style={{ width: 130 }}
        />
        <NameSearch
          label="题干"
          width={220}
          onSearch={(next) => {
            setKeyword(next);
            setPage(1);
          }}
        />
        <Button theme="solid" onClick={() => setEditing({ kind: 'create', subjectId })}>
          新建本校题
        </Button>
        <Typography.Text type="tertiary">{questions.data ? `共 ${total} 题` : ''}</Typography.Text>
      </div>
      {(questions.loading && !questions.data) || (subjectId === undefined && subjects.loading) ? (
        <Spin size="large" />
      ) : rows.length === 0 ? (
        <Empty
          image={<Illustration name="NoContent" style={{ width: 150, height: 150 }} />}
          title={keyword ? '没有符合条件的本校题' : '这个学科还没有本校题'}
          description={
            keyword ? '换个关键词试试' : '点「新建本校题」录入本校老师自己编写的题目，组卷选题时它们在题库中标为「本校题」'
          }
          className={styles.empty}
        />
      ) : (
        <Spin spinning={questions.loading}>
          <div className={compose.questionList} aria-label="本校题列表">
            {rows.map((question, i) => {
              const index = (page - 1) * SCHOOL_QUESTION_PAGE_SIZE + i + 1;
              return (
                <QuestionItem
                  key={question.id}
                  question={question}
                  index={index}
                  actions={
                    question.canEdit ? (
                      <>
                        <Button
                          size="small"
                          theme="borderless"
                          aria-label={`编辑：第 ${index} 题`}
                          onClick={() => setEditing({ kind: 'edit', question })}
                        >
                          编辑
                        </Button>
                        <Button
                          size="small"
                          theme="borderless"
                          type="danger"
                          aria-label={`删除：第 ${index} 题`}
                          onClick={() => confirmDelete(question, index)}
                        >
                          删除
                        </Button>
                      </>
                    ) : null
                  }
                />
              );
            })}
          </div>
        </Spin>
      )}
      {total > SCHOOL_QUESTION_PAGE_SIZE ? (
        <Pagination
          className={compose.pagination}
          total={total}
          pageSize={SCHOOL_QUESTION_PAGE_SIZE}
          currentPage={page}
          onPageChange={setPage}
        />
      ) : null}
      <QuestionEditorDialog
        target={editing}
        onClose={() => setEditing(null)}
        onSaved={(saved) => {
          setEditing(null);
          if (saved.subjectId !== subjectId) setChosenSubject(saved.subjectId);
          questions.reload();
        }}
      />
    </section>
  );
}
