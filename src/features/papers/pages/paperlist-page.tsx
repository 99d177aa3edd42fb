/**
 * /paperlist (作业列表): two tabs. 作业列表 lists the homework of the school year chosen in the top bar,
 * newest first, filtered by subject, class, status and date range, paged; each row leads to printing,
 * scanning, marking and analysis, and downloads the paper as Word. 我的试卷 (`?tab=papers`) lists the
 * saved papers (see my-papers.tsx). Without homework it invites the teacher to compose a paper; without
 * a school it says how to join one instead of loading anything.
 */
import { IconMore } from '@douyinfe/semi-icons';
import { Button, Dropdown, Empty, Space, TabPane, Tabs, Tag, Toast, Typography } from '@douyinfe/semi-ui-19';
import { LazyDatePicker as DatePicker } from '../../../shared/ui/lazy-date-picker';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import {
  HOMEWORK_STATUS_LABELS,
  HOMEWORK_STATUSES,
  type Homework,
  type HomeworkListQuery,
  type HomeworkStatus,
} from '../../../shared/contract/papers';
import { formatDate } from '../../../shared/lib/format-date';
import { formatScore } from '../basket.store';
import { ClassSelect } from '../class-select';
import { SubjectSelect } from '../subject-select';
import { NoSchoolPanel } from '../no-school-panel';
import { PagedList, useWordDownload } from '../paged-list';
import { fetchHomeworkPage, updateHomeworkStatus } from '../papers-api';
import { usePapersServices } from '../papers-services';
import { useRemote } from '../../../shared/ui/use-remote';
import styles from './paperlist-page.module.css';
import { LabelledSelect } from '../../../shared/ui/labelled-select';
import { Illustration } from '../../../shared/ui/illustration';
import { lazyPart } from '../../../shared/ui/lazy-part';

// 我的试卷 (its share and assign dialogs) loads when its tab is first opened, not with 作业列表; the
// roster and answer-sheet dialogs right after the list shows.
const MyPapers = lazyPart(() => import('../my-papers'), 'MyPapers', '内容加载中…');
const RosterDialog = lazyPart(() => import('../roster-dialog'), 'RosterDialog');
const AnswerSheetDialog = lazyPart(() => import('../answer-sheet-dialog'), 'AnswerSheetDialog');

export const HOMEWORK_PAGE_SIZE = 10;

const STATUS_COLORS: Record<HomeworkStatus, 'grey' | 'blue' | 'cyan' | 'orange' | 'green'> = {
  draft: 'grey',
  assigned: 'blue',
  scanning: 'cyan',
  marking: 'orange',
  finished: 'green',
};

type Tab = 'homework' | 'papers';

export function PaperListPage() {
  const { user } = usePapersServices();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'papers' ? 'papers' : 'homework';
  const [rosterOpen, setRosterOpen] = useState(false);
  if (user.orgId === null) return <NoSchoolPanel />;
  return (
    <main className={styles.page}>
      <div className={styles.head}>
        <Typography.Title heading={3} style={{ margin: 0 }}>
          作业列表
        </Typography.Title>
        <Space>
          <Button onClick={() => setRosterOpen(true)}>学生花名册</Button>
          <Button theme="solid" onClick={() => navigate('/edit')}>
            组卷
          </Button>
        </Space>
      </div>
      <Tabs
        type="line"
        activeKey={tab}
        onChange={(key) => setParams(key === 'papers' ? { tab: 'papers' } : {}, { replace: true })}
        className={styles.tabs}
      >
        <TabPane tab="作业列表" itemKey="homework" />
        <TabPane tab="我的试卷" itemKey="papers" />
      </Tabs>
      {tab === 'papers' ? (
        <MyPapers onAssigned={() => setParams({}, { replace: true })} />
      ) : (
        <HomeworkList schoolYearId={user.schoolYearId} schoolYearName={user.schoolYearName} />
      )}
      <RosterDialog visible={rosterOpen} onClose={() => setRosterOpen(false)} />
    </main>
  );
}

/** The homework of the chosen school year (all school years when none is chosen). */
function HomeworkList({ schoolYearId, schoolYearName }: { schoolYearId: number | null; schoolYearName: string | null }) {
  const { http } = usePapersServices();
  const navigate = useNavigate();
  const [subjectId, setSubjectId] = useState<number | undefined>();
  const [classId, setClassId] = useState<number | undefined>();
  const [status, setStatus] = useState<HomeworkStatus | undefined>();
  const [range, setRange] = useState<[string, string] | null>(null);
  const [page, setPage] = useState(1);
  const [sheetFor, setSheetFor] = useState<Homework | null>(null);
  const word = useWordDownload();
  const [changing, setChanging] = useState<number | null>(null);

  const query: HomeworkListQuery = {
    page,
    pageSize: HOMEWORK_PAGE_SIZE,
    ...(schoolYearId ? { schoolYearId } : {}),
    ...(subjectId ? { subjectId } : {}),
    ...(classId ? { classId } : {}),
    ...(status ? { status } : {}),
    ...(range ? { from: range[0], to: range[1] } : {}),
  };
  const homework = useRemote(JSON.stringify(query), () => fetchHomeworkPage(http, query));
  const filtered = Boolean(subjectId || classId || status || range);

  const filter =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };

  const changeStatus = async (row: Homework, next: HomeworkStatus) => {
    setChanging(row.id);
    try {
      await updateHomeworkStatus(http, row.id, next);
      Toast.success(`「${row.title}」已${next === 'assigned' ? '布置' : `设为${HOMEWORK_STATUS_LABELS[next]}`}`);
      homework.reload();
    } catch {
      // The client has shown why.
    } finally {
      setChanging(null);
    }
  };

  const actionProps = {
    onNavigate: (to: string) => void navigate(to),
    onStatus: (row: Homework, next: HomeworkStatus) => void changeStatus(row, next),
    changing,
    onAnswerSheet: setSheetFor,
    onWord: (row: Homework) => void word.download(row.id, row.paperId, row.title),
    downloading: word.downloading,
  };

  const columns = [
    {
      title: '作业名称',
      dataIndex: 'title',
      render: (_: unknown, row: Homework) => (
        <div>
          <Typography.Text strong>{row.title}</Typography.Text>
          <div
            className={styles.sub}
          >{`${row.questionCount} 题 · 满分 ${formatScore(row.totalScore)} 分 · ${row.paperSize}`}</div>
        </div>
      ),
    },
    { title: '学科', dataIndex: 'subject', width: 70, render: (_: unknown, row: Homework) => row.subject.name },
    {
      title: '班级',
      dataIndex: 'classes',
      width: 190,
      render: (_: unknown, row: Homework) => row.classes.map((c) => c.name).join('、'),
    },
    {
      title: '日期',
      dataIndex: 'startDate',
      width: 200,
      render: (_: unknown, row: Homework) => `${row.startDate} 至 ${row.dueDate}`,
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (_: unknown, row: Homework) => <Tag color={STATUS_COLORS[row.status]}>{HOMEWORK_STATUS_LABELS[row.status]}</Tag>,
    },
    {
      title: '操作',
      dataIndex: 'actions',
      width: 340,
      render: (_: unknown, row: Homework) => <HomeworkActions row={row} {...actionProps} />,
    },
  ];

  const total = homework.data?.total ?? 0;
  const rows = homework.data?.list ?? [];

  return (
    <section aria-label="作业">
      <div className={styles.filters} role="search" aria-label="筛选作业">
        <SubjectSelect value={subjectId} onChange={filter(setSubjectId)} />
        <ClassSelect showClear value={classId} onChange={filter(setClassId)} />
        <LabelledSelect
          label="状态"
          placeholder="全部状态"
          showClear
          value={status}
          optionList={HOMEWORK_STATUSES.map((s) => ({ value: s, label: HOMEWORK_STATUS_LABELS[s] }))}
          onChange={(value) => filter(setStatus)((value as HomeworkStatus | undefined) ?? undefined)}
          style={{ width: 130 }}
        />
        <DatePicker
          type="dateRange"
          aria-label="日期范围"
          placeholder={['开始日期', '结束日期']}
          value={range ?? undefined}
          format="yyyy-MM-dd"
          onChange={(value) => {
            const [from, to] = Array.isArray(value) ? value : [];
            filter(setRange)(from && to ? [formatDate(from as Date), formatDate(to as Date)] : null);
          }}
          style={{ width: 260 }}
        />
      </div>
      <PagedList
        label="作业列表"
        rows={rows}
        total={total}
        loading={homework.loading}
        page={page}
        pageSize={HOMEWORK_PAGE_SIZE}
        onPageChange={setPage}
        columns={columns}
        card={(row) => (
          <>
            <div className={styles.cardHead}>
              <Typography.Text strong>{row.title}</Typography.Text>
              <Tag color={STATUS_COLORS[row.status]}>{HOMEWORK_STATUS_LABELS[row.status]}</Tag>
            </div>
            <div className={styles.sub}>
              {`${row.subject.name} · ${row.questionCount} 题 · 满分 ${formatScore(row.totalScore)} 分 · ${row.paperSize}`}
            </div>
            <div className={styles.sub}>{row.classes.map((c) => c.name).join('、')}</div>
            <div className={styles.sub}>{`${row.startDate} 至 ${row.dueDate}`}</div>
            <HomeworkActions row={row} {...actionProps} />
          </>
        )}
        empty={
          <Empty
            image={<Illustration name="NoContent" style={{ width: 150, height: 150 }} />}
            title={filtered ? '没有符合条件的作业' : schoolYearName ? `${schoolYearName}还没有作业` : '还没有作业'}
            description={
              filtered ? '换个筛选条件试试' : '从题库组一份试卷，布置给班级后就会出现在这里；其他学年的作业在右上角切换学年后查看'
            }
            className={styles.empty}
          >
            <Button theme="solid" onClick={() => navigate('/edit')}>
              去组卷
            </Button>
          </Empty>
        }
      />
      <AnswerSheetDialog homework={sheetFor} onClose={() => setSheetFor(null)} />
    </section>
  );
}

type ActionProps = {
  row: Homework;
  onNavigate: (to: string) => void;
  onAnswerSheet: (row: Homework) => void;
  onWord: (row: Homework) => void;
  onStatus: (row: Homework, next: HomeworkStatus) => void;
  downloading: number | null;
  changing: number | null;
};

/** The row actions of one homework, shared by the table and the phone cards. */
function HomeworkActions({ row, onNavigate, onAnswerSheet, onWord, onStatus, downloading, changing }: ActionProps) {
  // A draft is not yet given to any class: nothing to scan, mark, analyse or print an answer sheet for.
  const draft = row.status === 'draft';
  return (
    <Space wrap spacing={4} className={styles.actions}>
      {draft ? (
        <Button size="small" theme="solid" loading={changing === row.id} onClick={() => onStatus(row, 'assigned')}>
          布置
        </Button>
      ) : null}
      <Button size="small" theme="borderless" onClick={() => onNavigate(`/printing?paperId=${row.paperId}`)}>
        打印试卷
      </Button>
      {draft ? (
        <Button size="small" theme="borderless" onClick={() => onNavigate(`/edit?paperId=${row.paperId}`)}>
          编辑试卷
        </Button>
      ) : (
        <>
          <Button size="small" theme="borderless" onClick={() => onAnswerSheet(row)}>
            打印答题卡
          </Button>
          <Button size="small" theme="borderless" onClick={() => onNavigate(`/scan?homeworkId=${row.id}`)}>
            扫描
          </Button>
          <Button size="small" theme="borderless" onClick={() => onNavigate(`/correct?homeworkId=${row.id}`)}>
            阅卷
          </Button>
          <Button size="small" theme="borderless" onClick={() => onNavigate(`/assistant/analysis?homeworkId=${row.id}`)}>
            分析
          </Button>
        </>
      )}
      <Button size="small" theme="borderless" loading={downloading === row.id} onClick={() => onWord(row)}>
        下载 Word
      </Button>
      <Dropdown
        position="bottomRight"
        render={
          <Dropdown.Menu>
            <Dropdown.Item onClick={() => onNavigate(`/printanswer?paperId=${row.paperId}`)}>打印答案</Dropdown.Item>
            <Dropdown.Item onClick={() => onNavigate(`/edit?copyFrom=${row.paperId}`)}>复制为新试卷</Dropdown.Item>
            {row.status !== 'finished' && row.status !== 'draft' ? (
              <Dropdown.Item onClick={() => onStatus(row, 'finished')}>设为已完成</Dropdown.Item>
            ) : null}
            {row.status === 'finished' ? (
              <Dropdown.Item onClick={() => onStatus(row, 'marking')}>重新打开阅卷</Dropdown.Item>
            ) : null}
            {draft ? null : (
              <Dropdown.Item
                onClick={() =>
                  onNavigate(`/printgrade?homeworkId=${row.id}${row.classes[0] ? `&classId=${row.classes[0].id}` : ''}`)
                }
              >
                打印成绩单
              </Dropdown.Item>
            )}
          </Dropdown.Menu>
        }
      >
        <span>
          <Button size="small" theme="borderless" icon={<IconMore />} aria-label={`更多操作：${row.title}`} />
        </span>
      </Dropdown>
    </Space>
  );
}
