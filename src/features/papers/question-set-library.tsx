/**
 * 校本资料's 题目合集 tab: the question sets teachers of the school shared (or, with 我的题目合集, the
 * caller's own, shared or not), filtered by subject, school year, chapter and knowledge point, with
 * who made each and when. Open one to read its questions; 用此合集组卷 starts a new paper on /edit with them; 复制到我的题目合集.
 * The owner and admins (the server's `canEdit`) edit, withdraw or remove, and delete a set.
 */
import { Button, Empty, Modal, Radio, RadioGroup, Space, Tag, Toast, Typography } from '@douyinfe/semi-ui-19';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { QuestionSetListQuery, QuestionSetSummary } from '../../shared/contract/question-sets';
import { formatDate } from '../../shared/lib/format-date';
import { Illustration } from '../../shared/ui/illustration';
import { useRemote } from '../../shared/ui/use-remote';
import { PagedList } from './paged-list';
import styles from './pages/paperlist-page.module.css';
import { usePapersServices } from './papers-services';
import { QuestionSetDialog, type QuestionSetTarget } from './question-set-dialog';
import { QuestionSetView, setByline } from './question-set-view';
import {
  copyQuestionSet,
  deleteQuestionSet,
  fetchQuestionSet,
  fetchQuestionSetPage,
  shareQuestionSet,
  unshareQuestionSet,
} from './question-sets-api';
import { LibraryFilters, type LibraryFilterValues } from './library-filters';
import { FilingPointSelect } from './filing-chapter-select';
import { filingLine, NameSearch, WithdrawButton, withdrawnToast } from './library-parts';

export const SET_PAGE_SIZE = 10;

type Scope = 'shared' | 'mine';

export function QuestionSetLibrary({ orgId }: { orgId: number }) {
  const { http } = usePapersServices();
  const navigate = useNavigate();
  const [scope, setScope] = useState<Scope>('shared');
  const [keyword, setKeyword] = useState('');
  const [libraryFilters, setLibraryFilters] = useState<LibraryFilterValues>({});
  const { subjectId, schoolYearId, chapterId } = libraryFilters;
  const [knowledgePointId, setKnowledgePointId] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const [openId, setOpenId] = useState<number | null>(null);
  const [editing, setEditing] = useState<QuestionSetTarget | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const query: QuestionSetListQuery = {
    scope,
    page,
    pageSize: SET_PAGE_SIZE,
    ...(keyword ? { keyword } : {}),
    ...(subjectId ? { subjectId } : {}),
    ...(schoolYearId ? { schoolYearId } : {}),
    ...(chapterId ? { chapterId } : {}),
    ...(knowledgePointId ? { knowledgePointId } : {}),
  };
  const sets = useRemote(`question-sets:${JSON.stringify(query)}`, () => fetchQuestionSetPage(http, query));
  const rows = sets.data?.list ?? [];
  const filtered = Boolean(keyword || subjectId || schoolYearId || chapterId || knowledgePointId);

  const filter =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };

  /** Runs one action of a row, showing its button busy; errors are shown by the client. */
  const run = async (key: string, action: () => Promise<void>) => {
    setBusy(key);
    try {
      await action();
    } catch {
      // Shown by the client.
    } finally {
      setBusy(null);
    }
  };

  const afterRemoval = () => {
    if (rows.length === 1 && page > 1) setPage(page - 1);
    else sets.reload();
  };

  const compose = (set: QuestionSetSummary) => navigate(`/edit?questionSet=${set.id}`);

  const copy = (set: QuestionSetSummary) =>
    run(`copy:${set.id}`, async () => {
      const created = await copyQuestionSet(http, set.id);
      Toast.success(`已复制到我的题目合集：「${created.name}」`);
      if (scope === 'mine') sets.reload();
    });

  const share = (set: QuestionSetSummary) =>
    run(`share:${set.id}`, async () => {
      await shareQuestionSet(http, set.id);
      Toast.success(`「${set.name}」已共享到校本资料`);
      sets.reload();
    });

  const edit = (set: QuestionSetSummary) =>
    run(`edit:${set.id}`, async () => setEditing({ kind: 'edit', set: await fetchQuestionSet(http, set.id) }));

  const unshare = (set: QuestionSetSummary) =>
    run(`unshare:${set.id}`, async () => {
      await unshareQuestionSet(http, set.id);
      Toast.success(withdrawnToast(set.name, set.mine));
      if (scope === 'shared') afterRemoval();
      else sets.reload();
    });

  const confirmDelete = (set: QuestionSetSummary) =>
    Modal.confirm({
      title: `删除题目合集「${set.name}」？`,
      content: '删除后无法恢复；合集中的题目仍在题库中，已组好的试卷不受影响。',
      okText: '删除',
      cancelText: '取消',
      okButtonProps: { type: 'danger' },
      onOk: () =>
        run(`delete:${set.id}`, async () => {
          await deleteQuestionSet(http, set.id);
          Toast.success(`已删除「${set.name}」`);
          afterRemoval();
        }),
    });

  const actions = (set: QuestionSetSummary) => (
    <Space wrap spacing={4} className={styles.actions}>
      <Button size="small" theme="borderless" aria-label={`查看：${set.name}`} onClick={() => setOpenId(set.id)}>
        查看
      </Button>
      <Button size="small" theme="solid" aria-label={`用此合集组卷：${set.name}`} onClick={() => compose(set)}>
        用此合集组卷
      </Button>
      {set.mine ? null : (
        <Button
          size="small"
          aria-label={`复制到我的题目合集：${set.name}`}
          loading={busy === `copy:${set.id}`}
          onClick={() => void copy(set)}
        >
          复制到我的题目合集
        </Button>
      )}
      {set.canEdit ? (
        <Button
          size="small"
          theme="borderless"
          loading={busy === `edit:${set.id}`}
          aria-label={`编辑：${set.name}`}
          onClick={() => void edit(set)}
        >
          编辑
        </Button>
      ) : null}
      {set.mine && set.sharedAt === null ? (
        <Button
          size="small"
          theme="borderless"
          loading={busy === `share:${set.id}`}
          aria-label={`共享：${set.name}`}
          onClick={() => void share(set)}
        >
          共享
        </Button>
      ) : null}
      {set.canEdit && set.sharedAt !== null ? (
        <WithdrawButton
          name={set.name}
          mine={set.mine}
          kept="合集本身保留在作者的我的题目合集中"
          onConfirm={() => unshare(set)}
        />
      ) : null}
      {set.canEdit ? (
        <Button size="small" theme="borderless" type="danger" aria-label={`删除：${set.name}`} onClick={() => confirmDelete(set)}>
          删除
        </Button>
      ) : null}
    </Space>
  );

  const columns = [
    {
      title: '合集名称',
      dataIndex: 'name',
      render: (_: unknown, set: QuestionSetSummary) => (
        <div>
          <Typography.Text strong>{set.name}</Typography.Text>
          {scope === 'mine' ? (
            <Tag size="small" color={set.sharedAt ? 'green' : 'grey'} style={{ marginLeft: 6 }}>
              {set.sharedAt ? '已共享' : '未共享'}
            </Tag>
          ) : null}
          <div className={styles.sub}>{`${set.questionCount} 题${set.description ? ` · ${set.description}` : ''}`}</div>
        </div>
      ),
    },
    { title: '学科', dataIndex: 'subject', width: 70, render: (_: unknown, set: QuestionSetSummary) => set.subject.name },
    { title: '学年', dataIndex: 'schoolYear', width: 130, render: (_: unknown, set: QuestionSetSummary) => set.schoolYear.name },
    {
      title: '章节',
      dataIndex: 'chapter',
      width: 150,
      render: (_: unknown, set: QuestionSetSummary) => (
        <div>
          {set.chapter?.name ?? '—'}
          {set.knowledgePoint ? <div className={styles.sub}>{`知识点：${set.knowledgePoint.name}`}</div> : null}
        </div>
      ),
    },
    {
      title: '创建人',
      dataIndex: 'createdBy',
      width: 90,
      render: (_: unknown, set: QuestionSetSummary) => set.createdBy?.name ?? '已注销的账号',
    },
    {
      title: scope === 'mine' ? '更新时间' : '共享时间',
      dataIndex: 'sharedAt',
      width: 110,
      render: (_: unknown, set: QuestionSetSummary) =>
        formatDate(scope === 'mine' ? set.updatedAt : (set.sharedAt ?? set.updatedAt)),
    },
    { title: '操作', dataIndex: 'actions', width: 260, render: (_: unknown, set: QuestionSetSummary) => actions(set) },
  ];

  return (
    <section aria-label="题目合集">
      <div className={styles.filters} role="search" aria-label="筛选题目合集">
        <RadioGroup
          type="button"
          aria-label="范围"
          value={scope}
          onChange={(event) => filter(setScope)(event.target.value as Scope)}
        >
          <Radio value="shared">本校共享</Radio>
          <Radio value="mine">我的题目合集</Radio>
        </RadioGroup>
        <NameSearch label="合集名称" width={200} onSearch={filter(setKeyword)} />
        <LibraryFilters
          orgId={orgId}
          value={libraryFilters}
          onChange={(next) => {
            // A knowledge point belongs to a subject: cleared with it, as 章节 is.
            if (next.subjectId !== subjectId) setKnowledgePointId(null);
            filter(setLibraryFilters)(next);
          }}
        />
        {subjectId ? (
          <FilingPointSelect
            subjectId={subjectId}
            value={knowledgePointId}
            onChange={filter(setKnowledgePointId)}
            placeholder="全部知识点"
            style={{ width: 200 }}
          />
        ) : null}
      </div>
      <PagedList
        label="题目合集列表"
        rows={rows}
        total={sets.data?.total ?? 0}
        loading={sets.loading}
        page={page}
        pageSize={SET_PAGE_SIZE}
        onPageChange={setPage}
        columns={columns}
        card={(set) => (
          <>
            <div className={styles.cardHead}>
              <Typography.Text strong>{set.name}</Typography.Text>
              {scope === 'mine' ? (
                <Tag size="small" color={set.sharedAt ? 'green' : 'grey'}>
                  {set.sharedAt ? '已共享' : '未共享'}
                </Tag>
              ) : null}
            </div>
            <div className={styles.sub}>
              {`${filingLine(set, set.chapter)}${set.knowledgePoint ? ` · 知识点：${set.knowledgePoint.name}` : ''}`}
            </div>
            <div className={styles.sub}>{`${set.questionCount} 题 · ${setByline(set)}`}</div>
            {actions(set)}
          </>
        )}
        empty={
          <Empty
            image={<Illustration name="NoContent" style={{ width: 150, height: 150 }} />}
            title={filtered ? '没有符合条件的题目合集' : scope === 'mine' ? '你还没有题目合集' : '还没有共享的题目合集'}
            description={filtered ? '换个条件试试' : '在组卷选题中把题目加入试题篮，再点「存为题目合集」'}
            className={styles.empty}
          >
            {filtered ? null : (
              <Button theme="solid" onClick={() => navigate('/edit')}>
                去题库选题
              </Button>
            )}
          </Empty>
        }
      />
      <QuestionSetView
        setId={openId}
        onClose={() => setOpenId(null)}
        onCompose={compose}
        onCopy={(set) => void copy(set)}
        onChanged={() => sets.reload()}
      />
      <QuestionSetDialog
        target={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          sets.reload();
        }}
      />
    </section>
  );
}
