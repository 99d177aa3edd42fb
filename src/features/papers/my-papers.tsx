/**
 * 我的试卷: the papers a teacher saved (or, switched, every paper of the school), searched by title and
 * paged, each opened in /edit, copied into a new paper, downloaded as Word, assigned to classes, or
 * deleted (one's own papers that no homework uses). A saved paper never assigned is found here. One's own
 * paper can be shared to 校本资料 (the school's shared library) and withdrawn again.
 */
import { Banner, Button, Empty, Modal, Radio, RadioGroup, Space, Tag, Toast, Typography } from '@douyinfe/semi-ui-19';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { PaperListQuery, PaperSummary } from '../../shared/contract/papers';
import { useRemote } from '../../shared/ui/use-remote';
import { AssignHomeworkFields, assignRequest, useAssignValues } from './assign-homework-fields';
import { formatScore } from './basket.store';
import styles from './pages/paperlist-page.module.css';
import compose from './compose.module.css';
import { PagedList, useWordDownload } from './paged-list';
import { paperActionsColumn, paperMeta, paperSchoolYearColumn, paperSubjectColumn, paperTitleColumn } from './paper-columns';
import { NameSearch } from './library-parts';
import { unsharePaper } from './materials-api';
import { createHomework, deletePaper, fetchPaperPage } from './papers-api';
import { usePapersServices } from './papers-services';
import { ShareDialog } from './share-dialog';
import { Illustration } from '../../shared/ui/illustration';

export const PAPER_PAGE_SIZE = 10;

type Scope = 'mine' | 'school';

export function MyPapers({ onAssigned }: { onAssigned: () => void }) {
  const { http } = usePapersServices();
  const navigate = useNavigate();
  const word = useWordDownload();
  const [scope, setScope] = useState<Scope>('mine');
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [assigning, setAssigning] = useState<PaperSummary | null>(null);
  const [sharing, setSharing] = useState<PaperSummary | null>(null);

  const query: PaperListQuery = { scope, page, pageSize: PAPER_PAGE_SIZE, ...(keyword ? { keyword } : {}) };
  const papers = useRemote(`papers:${JSON.stringify(query)}`, () => fetchPaperPage(http, query));
  const rows = papers.data?.list ?? [];
  const total = papers.data?.total ?? 0;

  const search = (value: string) => {
    setKeyword(value);
    setPage(1);
  };

  // Modal.confirm shows its 删除 button loading while this runs.
  const remove = async (paper: PaperSummary) => {
    try {
      await deletePaper(http, paper.id);
      Toast.success(`已删除「${paper.title}」`);
      if (rows.length === 1 && page > 1) setPage(page - 1);
      else papers.reload();
    } catch {
      // Shown by the client.
    }
  };

  // Modal.confirm shows its 撤回 button loading while this runs.
  const withdraw = async (paper: PaperSummary) => {
    try {
      await unsharePaper(http, paper.id);
      Toast.success(`已从校本资料撤回「${paper.title}」`);
      papers.reload();
    } catch {
      // Shown by the client.
    }
  };

  const shareAction = (paper: PaperSummary) =>
    paper.sharedAt === null ? (
      <Button size="small" theme="borderless" onClick={() => setSharing(paper)}>
        共享到校本资料
      </Button>
    ) : (
      <Button
        size="small"
        theme="borderless"
        aria-label={`撤回共享：${paper.title}`}
        onClick={() =>
          Modal.confirm({
            title: `从校本资料撤回「${paper.title}」？`,
            content: '撤回后本校老师不再能在校本资料中看到它，试卷本身保留；已被复制的副本不受影响。',
            okText: '撤回',
            cancelText: '取消',
            onOk: () => withdraw(paper),
          })
        }
      >
        撤回共享
      </Button>
    );

  const actions = (paper: PaperSummary) => (
    <Space wrap spacing={4} className={styles.actions}>
      <Button size="small" theme="solid" onClick={() => setAssigning(paper)}>
        布置
      </Button>
      {paper.mine ? (
        <Button size="small" theme="borderless" onClick={() => navigate(`/edit?paperId=${paper.id}`)}>
          编辑
        </Button>
      ) : null}
      <Button size="small" theme="borderless" onClick={() => navigate(`/edit?copyFrom=${paper.id}`)}>
        复制
      </Button>
      <Button size="small" theme="borderless" onClick={() => navigate(`/printing?paperId=${paper.id}`)}>
        预览
      </Button>
      <Button
        size="small"
        theme="borderless"
        loading={word.downloading === paper.id}
        onClick={() => void word.download(paper.id, paper.id, paper.title)}
      >
        下载 Word
      </Button>
      {paper.mine ? shareAction(paper) : null}
      {paper.mine ? (
        paper.homeworkCount > 0 ? (
          <Button size="small" theme="borderless" type="danger" disabled title="已布置为作业的试卷不能删除">
            删除
          </Button>
        ) : (
          <Button
            size="small"
            theme="borderless"
            type="danger"
            aria-label={`删除：${paper.title}`}
            onClick={() =>
              Modal.confirm({
                title: `删除「${paper.title}」？`,
                content: '删除后不能恢复。',
                okText: '删除',
                cancelText: '取消',
                okButtonProps: { type: 'danger' },
                onOk: () => remove(paper),
              })
            }
          >
            删除
          </Button>
        )
      ) : null}
    </Space>
  );

  const meta = (paper: PaperSummary) => paperMeta(paper) + (paper.mine || !paper.createdBy ? '' : ` · ${paper.createdBy.name}`);

  const columns = [
    paperTitleColumn(meta, (paper) =>
      paper.sharedAt ? (
        <Tag color="green" size="small" style={{ marginLeft: 6 }}>
          已共享
        </Tag>
      ) : null,
    ),
    paperSubjectColumn,
    paperSchoolYearColumn,
    {
      title: '保存时间',
      dataIndex: 'createdAt',
      width: 110,
      render: (_: unknown, paper: PaperSummary) => paper.createdAt.slice(0, 10),
    },
    {
      title: '布置',
      dataIndex: 'homeworkCount',
      width: 90,
      render: (_: unknown, paper: PaperSummary) =>
        paper.homeworkCount > 0 ? <Tag color="blue">{`已布置 ${paper.homeworkCount} 次`}</Tag> : <Tag>未布置</Tag>,
    },
    paperActionsColumn(380, actions),
  ];

  return (
    <section aria-label="我的试卷">
      <div className={styles.filters} role="search" aria-label="搜索试卷">
        <RadioGroup
          type="button"
          aria-label="试卷范围"
          value={scope}
          onChange={(event) => {
            setScope(event.target.value as Scope);
            setPage(1);
          }}
        >
          <Radio value="mine">我的试卷</Radio>
          <Radio value="school">全校试卷</Radio>
        </RadioGroup>
        <NameSearch label="试卷名称" width={240} onSearch={search} />
      </div>
      <PagedList
        label="试卷列表"
        rows={rows}
        total={total}
        loading={papers.loading}
        page={page}
        pageSize={PAPER_PAGE_SIZE}
        onPageChange={setPage}
        columns={columns}
        card={(paper) => (
          <>
            <div className={styles.cardHead}>
              <Typography.Text strong>{paper.title}</Typography.Text>
              {paper.homeworkCount > 0 ? <Tag color="blue">已布置</Tag> : <Tag>未布置</Tag>}
            </div>
            <div className={styles.sub}>{`${paper.subject.name} · ${paper.schoolYear.name} · ${meta(paper)}`}</div>
            {actions(paper)}
          </>
        )}
        empty={
          <Empty
            image={<Illustration name="NoContent" style={{ width: 150, height: 150 }} />}
            title={keyword ? '没有符合条件的试卷' : '还没有保存过试卷'}
            description={keyword ? '换个关键词试试' : '在组卷页选题后保存，试卷就会出现在这里'}
            className={styles.empty}
          >
            <Button theme="solid" onClick={() => navigate('/edit')}>
              去组卷
            </Button>
          </Empty>
        }
      />
      <ShareDialog
        paper={sharing}
        onClose={() => setSharing(null)}
        onShared={() => {
          setSharing(null);
          papers.reload();
        }}
      />
      <AssignPaperDialog
        paper={assigning}
        onClose={() => setAssigning(null)}
        onAssigned={() => {
          setAssigning(null);
          papers.reload();
          onAssigned();
        }}
      />
    </section>
  );
}

/** 布置作业 for a saved paper: classes of its school year and the dates. */
function AssignPaperDialog({
  paper,
  onClose,
  onAssigned,
}: {
  paper: PaperSummary | null;
  onClose: () => void;
  onAssigned: () => void;
}) {
  const { http } = usePapersServices();
  const [values, setValues] = useAssignValues();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const close = () => {
    setError('');
    setValues((v) => ({ ...v, classIds: [] }));
    onClose();
  };

  const assign = async () => {
    if (!paper) return;
    const request = assignRequest(paper.id, values);
    if (typeof request === 'string') return setError(request);
    setError('');
    setBusy(true);
    try {
      await createHomework(http, request);
      Toast.success(`「${paper.title}」已布置`);
      setValues((v) => ({ ...v, classIds: [] }));
      onAssigned();
    } catch {
      // Shown by the client.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title="布置作业"
      visible={paper !== null}
      onCancel={close}
      width="min(560px, calc(100vw - 24px))"
      footer={
        <Space>
          <Button onClick={close}>取消</Button>
          <Button theme="solid" loading={busy} onClick={() => void assign()}>
            布置作业
          </Button>
        </Space>
      }
    >
      {error ? (
        <Banner type="danger" fullMode={false} closeIcon={null} description={error} className={compose.dialogError} />
      ) : null}
      {paper ? (
        <div className={compose.dialogForm}>
          <Typography.Paragraph>
            {`把「${paper.title}」（${paper.schoolYear.name}，共 ${paper.questionCount} 题，满分 ${formatScore(paper.totalScore)} 分）布置给：`}
          </Typography.Paragraph>
          <AssignHomeworkFields paperId={paper.id} values={values} onChange={setValues} />
        </div>
      ) : null}
    </Modal>
  );
}
