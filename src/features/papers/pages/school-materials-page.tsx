/**
 * /schoolmaterials (校本资料): the school's shared library, in three tabs. 试卷: teachers share their papers
 * from 我的试卷 (共享到校本资料), each filed under a school year, subject and optionally a chapter; here
 * everyone of the school searches and filters them, previews one, and copies it into their own papers.
 * The owner withdraws an item, an admin removes any. 题目合集 (`?tab=sets`): question sets gathered from
 * the question bank (see question-set-library.tsx). 本校题 (`?tab=questions`): the questions the school
 * wrote itself, written and curated here (see school-questions.tsx). Another school's items never appear
 * (the server scopes them).
 */
import { Button, Empty, Space, Spin, TabPane, Tabs, Toast, Typography } from '@douyinfe/semi-ui-19';
import { lazy, Suspense, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { MaterialListQuery } from '../../../shared/contract/materials';
import type { PaperSummary } from '../../../shared/contract/papers';
import { formatDate } from '../../../shared/lib/format-date';
import { useRemote } from '../../../shared/ui/use-remote';
import { NoSchoolPanel } from '../no-school-panel';
import { PagedList } from '../paged-list';
import { paperActionsColumn, paperMeta, paperSchoolYearColumn, paperSubjectColumn, paperTitleColumn } from '../paper-columns';
import { filingLine, NameSearch, WithdrawButton, withdrawnToast } from '../library-parts';
import { copyPaper, fetchMaterialPage, unsharePaper } from '../materials-api';
import { LibraryFilters, type LibraryFilterValues } from '../library-filters';
import { usePapersServices } from '../papers-services';
import styles from './paperlist-page.module.css';
import { Illustration } from '../../../shared/ui/illustration';

export const MATERIAL_PAGE_SIZE = 10;

// The 题目合集 tab (its list, view and dialog) is fetched when opened, not with the papers' first view.
const QuestionSetLibrary = lazy(() => import('../question-set-library').then((m) => ({ default: m.QuestionSetLibrary })));
// So is the 本校题 tab (its list and the question editor).
const SchoolQuestions = lazy(() => import('../school-questions').then((m) => ({ default: m.SchoolQuestions })));

export function SchoolMaterialsPage() {
  const { user } = usePapersServices();
  if (user.orgId === null) return <NoSchoolPanel />;
  return <SchoolMaterials orgId={user.orgId} />;
}

function SchoolMaterials({ orgId }: { orgId: number }) {
  const { http } = usePapersServices();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const tab = asked === 'sets' || asked === 'questions' ? asked : 'papers';
  const [keyword, setKeyword] = useState('');
  const [libraryFilters, setLibraryFilters] = useState<LibraryFilterValues>({});
  const { subjectId, schoolYearId, chapterId } = libraryFilters;
  const [page, setPage] = useState(1);
  const [copying, setCopying] = useState<number | null>(null);

  const query: MaterialListQuery = {
    page,
    pageSize: MATERIAL_PAGE_SIZE,
    ...(keyword ? { keyword } : {}),
    ...(subjectId ? { subjectId } : {}),
    ...(schoolYearId ? { schoolYearId } : {}),
    ...(chapterId ? { chapterId } : {}),
  };
  const materials = useRemote(tab === 'papers' ? `materials:${JSON.stringify(query)}` : null, () =>
    fetchMaterialPage(http, query),
  );
  const rows = materials.data?.list ?? [];
  const filtered = Boolean(keyword || subjectId || schoolYearId || chapterId);

  const filter =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };

  const copy = async (paper: PaperSummary) => {
    setCopying(paper.id);
    try {
      const created = await copyPaper(http, paper.id);
      Toast.success(`已复制到我的试卷：「${created.title}」`);
    } catch {
      // Shown by the client.
    } finally {
      setCopying(null);
    }
  };

  // The confirmation shows its button loading while this runs.
  const remove = async (paper: PaperSummary) => {
    try {
      await unsharePaper(http, paper.id);
      Toast.success(withdrawnToast(paper.title, paper.mine));
      if (rows.length === 1 && page > 1) setPage(page - 1);
      else materials.reload();
    } catch {
      // Shown by the client.
    }
  };

  const actions = (paper: PaperSummary) => (
    <Space wrap spacing={4} className={styles.actions}>
      <Button size="small" theme="borderless" onClick={() => navigate(`/printing?paperId=${paper.id}`)}>
        预览
      </Button>
      <Button size="small" theme="solid" loading={copying === paper.id} onClick={() => void copy(paper)}>
        复制到我的试卷
      </Button>
      {paper.mine || materials.data?.canRemoveAny ? (
        <WithdrawButton
          name={paper.title}
          mine={paper.mine}
          kept="试卷本身保留在作者的我的试卷中"
          onConfirm={() => remove(paper)}
        />
      ) : null}
    </Space>
  );

  const sharer = (paper: PaperSummary) => paper.createdBy?.name ?? '已注销的账号';

  const columns = [
    paperTitleColumn(paperMeta),
    paperSubjectColumn,
    paperSchoolYearColumn,
    {
      title: '章节',
      dataIndex: 'sharedChapter',
      width: 160,
      render: (_: unknown, paper: PaperSummary) => paper.sharedChapter?.name ?? '—',
    },
    { title: '共享人', dataIndex: 'createdBy', width: 100, render: (_: unknown, paper: PaperSummary) => sharer(paper) },
    {
      title: '共享时间',
      dataIndex: 'sharedAt',
      width: 110,
      render: (_: unknown, paper: PaperSummary) => (paper.sharedAt ? formatDate(paper.sharedAt) : ''),
    },
    paperActionsColumn(240, actions),
  ];

  return (
    <main className={styles.page}>
      <div className={styles.head}>
        <div>
          <Typography.Title heading={3} style={{ margin: 0 }}>
            校本资料
          </Typography.Title>
          <Typography.Text type="tertiary">
            {tab === 'papers'
              ? '本校老师共享的试卷，可预览、复制到我的试卷后修改和布置'
              : tab === 'sets'
                ? '本校老师从题库中整理的题目合集，可查看、复制，或直接用来组卷'
                : '本校老师自己编写的题目，组卷选题时在题库中标为「本校题」'}
          </Typography.Text>
        </div>
        {tab === 'papers' ? (
          <Button onClick={() => navigate('/paperlist?tab=papers')}>共享我的试卷</Button>
        ) : (
          <Button onClick={() => navigate('/edit')}>去题库选题</Button>
        )}
      </div>
      <Tabs
        type="line"
        className={styles.tabs}
        activeKey={tab}
        onChange={(key) => setParams(key === 'papers' ? {} : { tab: key }, { replace: true })}
      >
        <TabPane tab="试卷" itemKey="papers" />
        <TabPane tab="题目合集" itemKey="sets" />
        <TabPane tab="本校题" itemKey="questions" />
      </Tabs>
      {tab === 'sets' ? (
        <Suspense fallback={<Spin />}>
          <QuestionSetLibrary orgId={orgId} />
        </Suspense>
      ) : null}
      {tab === 'questions' ? (
        <Suspense fallback={<Spin />}>
          <SchoolQuestions />
        </Suspense>
      ) : null}
      {tab === 'papers' ? (
        <>
          <div className={styles.filters} role="search" aria-label="筛选校本资料">
            <NameSearch label="试卷名称" width={220} onSearch={filter(setKeyword)} />
            <LibraryFilters orgId={orgId} value={libraryFilters} onChange={filter(setLibraryFilters)} />
          </div>
          <PagedList
            label="校本资料列表"
            rows={rows}
            total={materials.data?.total ?? 0}
            loading={materials.loading}
            page={page}
            pageSize={MATERIAL_PAGE_SIZE}
            onPageChange={setPage}
            columns={columns}
            card={(paper) => (
              <>
                <div className={styles.cardHead}>
                  <Typography.Text strong>{paper.title}</Typography.Text>
                </div>
                <div className={styles.sub}>{filingLine(paper, paper.sharedChapter)}</div>
                <div className={styles.sub}>
                  {`${paperMeta(paper)} · ${sharer(paper)} 共享于 ${paper.sharedAt ? formatDate(paper.sharedAt) : ''}`}
                </div>
                {actions(paper)}
              </>
            )}
            empty={
              <Empty
                image={<Illustration name="NoContent" style={{ width: 150, height: 150 }} />}
                title={filtered ? '没有符合条件的资料' : '校本资料还是空的'}
                description={filtered ? '换个条件试试' : '在作业列表的「我的试卷」中点「共享到校本资料」，本校老师就能在这里看到'}
                className={styles.empty}
              >
                {filtered ? null : (
                  <Button theme="solid" onClick={() => navigate('/paperlist?tab=papers')}>
                    去我的试卷
                  </Button>
                )}
              </Empty>
            }
          />
        </>
      ) : null}
    </main>
  );
}
