/**
 * /correct without ?homeworkId=: the homework that can be marked now (扫描中 and 阅卷中), to choose one,
 * instead of an empty page.
 */
import { Button, Empty, Spin, Tag, Typography } from '@douyinfe/semi-ui-19';
import { useNavigate } from 'react-router-dom';
import { HOMEWORK_STATUS_LABELS, type Homework } from '../../shared/contract/papers';
import { fetchHomeworkByStatus } from './marking-api';
import { useMarkingServices } from './marking-services';
import styles from './marking.module.css';
import { useRemote } from '../../shared/ui/use-remote';
import { Illustration } from '../../shared/ui/illustration';

export function HomeworkPicker() {
  const { http } = useMarkingServices();
  const navigate = useNavigate();
  const list = useRemote('markable-homework', async () => {
    const [marking, scanning] = await Promise.all([
      fetchHomeworkByStatus(http, 'marking'),
      fetchHomeworkByStatus(http, 'scanning'),
    ]);
    return [...marking.list, ...scanning.list];
  });
  const rows: Homework[] = list.data ?? [];

  return (
    <main className={styles.page}>
      <div className={styles.head}>
        <Typography.Title heading={3} className={styles.title}>
          阅卷
        </Typography.Title>
        <Button onClick={() => navigate('/paperlist')}>返回作业列表</Button>
      </div>
      <Typography.Paragraph type="tertiary">选择要阅卷的作业（扫描中或阅卷中的作业）：</Typography.Paragraph>
      {list.data === undefined ? (
        <Spin spinning={list.loading}>
          <div className={styles.empty} />
        </Spin>
      ) : rows.length === 0 ? (
        <Empty
          className={styles.empty}
          image={<Illustration name="NoContent" style={{ width: 150, height: 150 }} />}
          title="暂无待阅卷的作业"
          description="扫描答题卡后，作业会出现在这里"
        >
          <Button theme="solid" onClick={() => navigate('/paperlist')}>
            去作业列表
          </Button>
        </Empty>
      ) : (
        <ul className={styles.pickerList} aria-label="待阅卷作业">
          {rows.map((row) => (
            <li key={row.id} className={styles.pickerItem}>
              <div>
                <Typography.Text strong>{row.title}</Typography.Text>{' '}
                <Tag size="small" color={row.status === 'marking' ? 'orange' : 'cyan'}>
                  {HOMEWORK_STATUS_LABELS[row.status]}
                </Tag>
                <div className={styles.sub}>
                  {`${row.subject.name} · ${row.classes.map((c) => c.name).join('、')} · ${row.startDate} 至 ${row.dueDate}`}
                </div>
              </div>
              <Button theme="solid" aria-label={`阅卷：${row.title}`} onClick={() => navigate(`/correct?homeworkId=${row.id}`)}>
                阅卷
              </Button>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
