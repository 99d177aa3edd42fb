/**
 * /edit (组卷选题): browse the question bank of a subject by chapter or knowledge point, type,
 * difficulty and keyword; collect questions in the 试题篮; compose automatically by rules; preview the
 * paper as printed; save it and assign it to classes as homework, or keep the picked questions as a
 * 题目合集. `?questionSet=` starts the basket from a set (用此合集组卷).
 */
import { IconSearch } from '@douyinfe/semi-icons';
import { Button, Empty, Input, Spin, TabPane, Tabs, Tree, Typography } from '@douyinfe/semi-ui-19';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  DIFFICULTIES,
  DIFFICULTY_LABELS,
  QUESTION_TYPE_LABELS,
  QUESTION_TYPES,
  type PaperDraft,
  type Question,
  type QuestionQuery,
  type QuestionType,
} from '../../../shared/contract/papers';
import { BasketPanel } from '../basket-panel';
import { basketCount, basketQuestionIds, useBasketStore } from '../basket.store';
import styles from '../compose.module.css';
import { NoSchoolPanel } from '../no-school-panel';
import { QuestionItem } from '../question-item';
import { fetchChapters, fetchKnowledgePoints, fetchQuestions, fetchSubjects } from '../papers-api';
import { usePapersServices } from '../papers-services';
import { confirmLater } from '../../../shared/ui/lazy-confirm';
import { LazyPagination as Pagination } from '../../../shared/ui/lazy-pagination';
import { lazyPart } from '../../../shared/ui/lazy-part';
import { MAX_SET_NAME } from '../../../shared/contract/question-sets';
import { toTreeData } from '../tree-data';
import { usePaperFromAddress } from '../use-paper-from-address';
import { useRemote } from '../../../shared/ui/use-remote';
import { LabelledSelect } from '../../../shared/ui/labelled-select';

export const QUESTION_PAGE_SIZE = 10;

// 存为题目合集's dialog is fetched when first opened; 试卷预览's, 自动组卷's and 保存试卷's right after the page
// shows (with Semi's Modal, which the confirmations below then find loaded).
const BasketPreviewDialog = lazyPart(() => import('../basket-preview-dialog'), 'BasketPreviewDialog');
const QuestionSetDialog = lazy(() => import('../question-set-dialog').then((m) => ({ default: m.QuestionSetDialog })));
const AutoComposeDialog = lazyPart(() => import('../auto-compose-dialog'), 'AutoComposeDialog');
const SavePaperDialog = lazyPart(() => import('../save-paper-dialog'), 'SavePaperDialog');

type TreeKind = 'chapter' | 'knowledgePoint';

export function EditPage() {
  const { user } = usePapersServices();
  return user.orgId === null ? <NoSchoolPanel /> : <Composer />;
}

function Composer() {
  const { http, user } = usePapersServices();
  const navigate = useNavigate();
  usePaperFromAddress();
  const basket = useBasketStore();
  const inBasket = basketQuestionIds(basket.sections);

  const subjects = useRemote('subjects', () => fetchSubjects(http));
  const subjectId = basket.subjectId ?? subjects.data?.[0]?.id ?? null;
  const subjectName = subjects.data?.find((s) => s.id === subjectId)?.name ?? '';

  const [treeKind, setTreeKind] = useState<TreeKind>('chapter');
  const [nodeId, setNodeId] = useState<number | undefined>();
  const [type, setType] = useState<QuestionType | undefined>();
  const [difficulty, setDifficulty] = useState<number | undefined>();
  const [keywordInput, setKeywordInput] = useState('');
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<'none' | 'preview' | 'auto' | 'save' | 'set'>('none');

  const chapters = useRemote(subjectId ? `chapters:${subjectId}` : null, () => fetchChapters(http, subjectId ?? 0));
  const knowledgePoints = useRemote(subjectId ? `kps:${subjectId}` : null, () => fetchKnowledgePoints(http, subjectId ?? 0));
  const tree = treeKind === 'chapter' ? chapters : knowledgePoints;

  const query: QuestionQuery | null = subjectId
    ? {
        subjectId,
        page,
        pageSize: QUESTION_PAGE_SIZE,
        ...(nodeId ? (treeKind === 'chapter' ? { chapterId: nodeId } : { knowledgePointId: nodeId }) : {}),
        ...(type ? { type } : {}),
        ...(difficulty ? { difficulty } : {}),
        ...(keyword ? { keyword } : {}),
      }
    : null;
  const questions = useRemote(query ? JSON.stringify(query) : null, () => fetchQuestions(http, query ?? { subjectId: 0 }));

  const resetFilters = () => {
    setNodeId(undefined);
    setPage(1);
  };

  const changeSubject = (next: number) => {
    if (next === subjectId) return;
    const apply = () => {
      useBasketStore.getState().clear();
      useBasketStore.getState().setMeta({ subjectId: next });
      resetFilters();
    };
    if (basketCount(basket.sections) === 0) apply();
    else
      confirmLater({
        title: '切换学科',
        content: '试题篮中的题目属于当前学科，切换学科将清空试题篮。确定切换吗？',
        onOk: apply,
      });
  };

  const applyDraft = (draft: PaperDraft) => {
    const apply = () => {
      useBasketStore.getState().load(draft, null);
      setDialog('none');
    };
    if (basketCount(basket.sections) === 0) apply();
    else
      confirmLater({
        title: '替换试题篮',
        content: `智能组卷选出了 ${draft.questionCount} 道题，将替换试题篮中已选的题目。确定吗？`,
        onOk: apply,
      });
  };

  return (
    <main className={styles.page}>
      <div className={styles.pageHead}>
        <Typography.Title heading={3} style={{ margin: 0 }}>
          组卷选题
        </Typography.Title>
        <LabelledSelect
          label="学科"
          placeholder="选择学科"
          value={subjectId ?? undefined}
          loading={subjects.loading}
          optionList={(subjects.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
          onChange={(value) => changeSubject(Number(value))}
          style={{ width: 140 }}
        />
        <Button theme="solid" type="secondary" disabled={!subjectId || !user.schoolYearId} onClick={() => setDialog('auto')}>
          智能组卷
        </Button>
      </div>
      <div className={styles.layout}>
        <nav className={styles.treePanel} aria-label="题目范围">
          <Tabs
            type="line"
            size="small"
            activeKey={treeKind}
            onChange={(key) => {
              setTreeKind(key as TreeKind);
              resetFilters();
            }}
          >
            <TabPane tab="章节" itemKey="chapter" />
            <TabPane tab="知识点" itemKey="knowledgePoint" />
          </Tabs>
          <Button
            theme={nodeId ? 'borderless' : 'light'}
            size="small"
            block
            onClick={() => resetFilters()}
            className={styles.allNodes}
          >
            {treeKind === 'chapter' ? '全部章节' : '全部知识点'}
          </Button>
          {tree.loading && !tree.data ? (
            <Spin />
          ) : (
            <Tree
              aria-label={treeKind === 'chapter' ? '章节' : '知识点'}
              treeData={toTreeData(tree.data ?? [])}
              value={nodeId}
              onChange={(value) => {
                setNodeId(value === undefined || value === null ? undefined : Number(value));
                setPage(1);
              }}
              filterTreeNode
              searchPlaceholder={treeKind === 'chapter' ? '搜索章节' : '搜索知识点'}
              className={styles.tree}
            />
          )}
        </nav>
        <section className={styles.listPanel} aria-label="题目列表">
          <div className={styles.filters}>
            <LabelledSelect
              label="题型"
              placeholder="全部题型"
              showClear
              value={type}
              optionList={QUESTION_TYPES.map((t) => ({ value: t, label: QUESTION_TYPE_LABELS[t] }))}
              onChange={(value) => {
                setType((value as QuestionType | undefined) ?? undefined);
                setPage(1);
              }}
              style={{ width: 130 }}
            />
            <LabelledSelect
              label="难度"
              placeholder="全部难度"
              showClear
              value={difficulty}
              optionList={DIFFICULTIES.map((d) => ({ value: d, label: DIFFICULTY_LABELS[d] }))}
              onChange={(value) => {
                setDifficulty(value ? Number(value) : undefined);
                setPage(1);
              }}
              style={{ width: 120 }}
            />
            <Input
              aria-label="关键词"
              placeholder="搜索题干关键词"
              prefix={<IconSearch />}
              showClear
              value={keywordInput}
              maxLength={50}
              onChange={(value) => {
                setKeywordInput(value);
                if (value === '') {
                  setKeyword('');
                  setPage(1);
                }
              }}
              onEnterPress={() => {
                setKeyword(keywordInput.trim());
                setPage(1);
              }}
              style={{ width: 220 }}
            />
            <Button
              onClick={() => {
                setKeyword(keywordInput.trim());
                setPage(1);
              }}
            >
              搜索
            </Button>
            <Typography.Text type="tertiary" className={styles.count}>
              {questions.data ? `共 ${questions.data.total} 题` : ''}
            </Typography.Text>
          </div>
          {questions.loading && !questions.data ? (
            <Spin size="large" />
          ) : (questions.data?.list.length ?? 0) === 0 ? (
            <Empty title="没有符合条件的题目" description="换个章节、题型或难度试试" />
          ) : (
            <Spin spinning={questions.loading}>
              <div className={styles.questionList}>
                {questions.data?.list.map((question, i) => (
                  <QuestionItemRow
                    key={question.id}
                    index={(page - 1) * QUESTION_PAGE_SIZE + i + 1}
                    question={question}
                    inBasket={inBasket.has(question.id)}
                  />
                ))}
              </div>
            </Spin>
          )}
          {(questions.data?.total ?? 0) > QUESTION_PAGE_SIZE ? (
            <Pagination
              className={styles.pagination}
              total={questions.data?.total ?? 0}
              pageSize={QUESTION_PAGE_SIZE}
              currentPage={page}
              onPageChange={setPage}
            />
          ) : null}
        </section>
        <BasketPanel onPreview={() => setDialog('preview')} onSave={() => setDialog('save')} onSaveSet={() => setDialog('set')} />
      </div>
      <Button
        theme="solid"
        className={styles.basketJump}
        onClick={() => document.getElementById('paper-basket')?.scrollIntoView({ behavior: 'smooth' })}
      >
        {`试题篮（${basketCount(basket.sections)}）`}
      </Button>
      <BasketPreviewDialog
        visible={dialog === 'preview'}
        title={basket.title.trim() || '未命名试卷'}
        subjectName={subjectName}
        sections={basket.sections}
        paperSize={basket.paperSize}
        onClose={() => setDialog('none')}
      />
      {subjectId && user.schoolYearId ? (
        <AutoComposeDialog
          visible={dialog === 'auto'}
          subjectId={subjectId}
          schoolYearId={user.schoolYearId}
          schoolYearName={user.schoolYearName ?? ''}
          chapters={chapters.data ?? []}
          onClose={() => setDialog('none')}
          onComposed={applyDraft}
        />
      ) : null}
      {dialog === 'set' ? (
        <Suspense fallback={null}>
          <QuestionSetDialog
            target={
              dialog === 'set' && subjectId
                ? {
                    kind: 'create',
                    subjectId,
                    subjectName,
                    questionIds: [...inBasket],
                    name: basket.title.trim().slice(0, MAX_SET_NAME),
                  }
                : null
            }
            onClose={() => setDialog('none')}
            onSaved={() => setDialog('none')}
          />
        </Suspense>
      ) : null}
      <SavePaperDialog
        visible={dialog === 'save'}
        subjectName={subjectName}
        onClose={() => setDialog('none')}
        onAssigned={() => {
          useBasketStore.getState().clear();
          setDialog('none');
          void navigate('/paperlist');
        }}
      />
    </main>
  );
}

function QuestionItemRow(props: { index: number; question: Question; inBasket: boolean }) {
  const { add, remove } = useBasketStore.getState();
  return (
    <QuestionItem
      index={props.index}
      question={props.question}
      inBasket={props.inBasket}
      onToggle={() => (props.inBasket ? remove(props.question.id) : add(props.question))}
    />
  );
}
