/**
 * /correct (阅卷): one homework's marking. The header names the homework and its status; recognition
 * progress and each question's marking progress follow the school's live events; below them, the students
 * still missing (by name, each can be marked 缺考) and the owner's 结束阅卷. Tabs: 阅卷任务,
 * 任务分配 (owner), 异常处理, 成绩, 仲裁 (owner, when answers wait for it); the tab is kept in ?tab= so
 * /write can lead back to it. Without ?homeworkId= the page offers the homework that can be marked.
 */
import { IconRefresh } from '@douyinfe/semi-icons';
import { Badge, Button, Empty, Spin, TabPane, Tabs, Tag, Typography } from '@douyinfe/semi-ui-19';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { HOMEWORK_STATUS_LABELS, type HomeworkStatus } from '../../../shared/contract/papers';
import { SMALL_SCREEN_QUERY, useMediaQuery } from '../../../shared/ui/use-media-query';
import { HomeworkPicker } from '../homework-picker';
import { MarkingTasksTab } from '../marking-tasks-tab';
import styles from '../marking.module.css';
import { RecognitionPanel } from '../recognition-panel';
import { StudentsPanel } from '../students-panel';
import { useMarkingOverview } from '../use-marking-overview';
import { parsePositiveId } from '../../../shared/lib/query-param';
import { Illustration } from '../../../shared/ui/illustration';
import { lazyPart } from '../../../shared/ui/lazy-part';

// The tabs other than 阅卷任务 load when first opened (the tabs render lazily): 任务分配's and 异常处理's
// number fields, 成绩's table and the rest are not in the page's first view.
const AssignmentsTab = lazyPart(() => import('../assignments-tab'), 'AssignmentsTab', '内容加载中…');
const ReviewTab = lazyPart(() => import('../review-tab'), 'ReviewTab', '内容加载中…');
const ScoresTab = lazyPart(() => import('../scores-tab'), 'ScoresTab', '内容加载中…');
const ArbitrationTab = lazyPart(() => import('../arbitration-tab'), 'ArbitrationTab', '内容加载中…');

export const CORRECT_TABS = ['tasks', 'assign', 'review', 'scores', 'arbitration'] as const;
export type CorrectTab = (typeof CORRECT_TABS)[number];

export const HOMEWORK_STATUS_COLORS: Record<HomeworkStatus, 'grey' | 'blue' | 'cyan' | 'orange' | 'green'> = {
  draft: 'grey',
  assigned: 'blue',
  scanning: 'cyan',
  marking: 'orange',
  finished: 'green',
};

export function CorrectPage() {
  const [params] = useSearchParams();
  const homeworkId = parsePositiveId(params.get('homeworkId'));
  return homeworkId ? <HomeworkMarking key={homeworkId} homeworkId={homeworkId} /> : <HomeworkPicker />;
}

function HomeworkMarking({ homeworkId }: { homeworkId: number }) {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const { overview, loading, error, reload, replace } = useMarkingOverview(homeworkId);
  // Bumped by 刷新 so the open tab loads again too (tabs load when shown; leaving one unmounts it).
  const [refreshes, setRefreshes] = useState(0);
  const small = useMediaQuery(SMALL_SCREEN_QUERY);

  const requested = params.get('tab') as CorrectTab | null;
  const showArbitration = Boolean(overview?.isOwner && overview.questions.some((q) => q.arbitration > 0));
  const available: CorrectTab[] = ['tasks', ...(overview?.isOwner ? (['assign'] as const) : []), 'review', 'scores'];
  if (showArbitration || requested === 'arbitration') available.push('arbitration');
  const tab: CorrectTab = requested && available.includes(requested) ? requested : 'tasks';

  const selectTab = (key: string) => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('tab', key);
        return next;
      },
      { replace: true },
    );
  };

  if (!overview) {
    return (
      <main className={styles.page}>
        {error && !loading ? (
          <Empty
            className={styles.empty}
            image={<Illustration name="NotFound" style={{ width: 150, height: 150 }} />}
            title="无法打开这份作业的阅卷"
            description="作业不存在、不属于您的学校，或网络出现问题"
          >
            <div className={styles.actions}>
              <Button onClick={reload}>重试</Button>
              <Button onClick={() => navigate('/correct')}>选择其他作业</Button>
            </div>
          </Empty>
        ) : (
          <Spin size="large" tip="正在加载阅卷信息…" style={{ width: '100%', padding: '80px 0' }} />
        )}
      </main>
    );
  }

  const manualCount = overview.questions.filter((q) => q.manual).length;
  const arbitrationCount = overview.questions.reduce((sum, q) => sum + q.arbitration, 0);
  const { review, recognised } = overview.recognition;

  return (
    <main className={styles.page}>
      <header className={styles.head}>
        <div>
          <div className={styles.titleLine}>
            <Typography.Title heading={3} className={styles.title}>
              {overview.title}
            </Typography.Title>
            <Tag color={HOMEWORK_STATUS_COLORS[overview.status]}>{HOMEWORK_STATUS_LABELS[overview.status]}</Tag>
            {overview.isOwner ? (
              <Tag color="white" size="small">
                我布置的
              </Tag>
            ) : null}
          </div>
          <span className={styles.sub}>{`共 ${overview.questions.length} 题，其中 ${manualCount} 题需人工阅卷`}</span>
        </div>
        <div className={styles.titleLine}>
          <Button
            icon={<IconRefresh />}
            loading={loading}
            onClick={() => {
              reload();
              setRefreshes((n) => n + 1);
            }}
          >
            刷新
          </Button>
          <Button onClick={() => navigate(`/scan?homeworkId=${homeworkId}`)}>扫描答题卡</Button>
          <Button onClick={() => navigate('/paperlist')}>返回作业列表</Button>
        </div>
      </header>
      <RecognitionPanel
        recognition={overview.recognition}
        scannedStudents={overview.students?.scanned ?? 0}
        onShowReview={() => selectTab('review')}
      />
      <StudentsPanel overview={overview} onChanged={replace} />
      <Tabs
        type="line"
        activeKey={tab}
        onChange={selectTab}
        lazyRender
        keepDOM={false}
        collapsible={small}
        contentStyle={{ paddingTop: 16 }}
      >
        <TabPane tab="阅卷任务" itemKey="tasks">
          <MarkingTasksTab overview={overview} />
        </TabPane>
        {overview.isOwner ? (
          <TabPane tab="任务分配" itemKey="assign">
            <AssignmentsTab
              key={JSON.stringify([
                overview.partialCredit,
                overview.questions.map((q) => [q.assigned, q.doubleMarking, q.tolerance]),
              ])}
              overview={overview}
              onSaved={replace}
            />
          </TabPane>
        ) : null}
        <TabPane
          tab={<span>异常处理 {review > 0 ? <Badge count={review} overflowCount={99} type="warning" /> : null}</span>}
          itemKey="review"
        >
          <ReviewTab homeworkId={homeworkId} version={`${refreshes}:${review}:${recognised}`} onResolved={reload} />
        </TabPane>
        <TabPane tab="成绩" itemKey="scores">
          <ScoresTab
            homeworkId={homeworkId}
            title={overview.title}
            version={`${refreshes}:${overview.status}:${overview.students?.scanned ?? 0}:${overview.students?.absent.length ?? 0}`}
          />
        </TabPane>
        {available.includes('arbitration') ? (
          <TabPane
            tab={
              <span>
                仲裁 {arbitrationCount > 0 ? <Badge count={arbitrationCount} overflowCount={99} type="danger" /> : null}
              </span>
            }
            itemKey="arbitration"
          >
            <ArbitrationTab homeworkId={homeworkId} version={`${refreshes}:${arbitrationCount}`} />
          </TabPane>
        ) : null}
      </Tabs>
    </main>
  );
}
