/**
 * /paperbinding (装订): bound PDF booklets from the stored scans. 按作业: one class's sheets of one homework,
 * with a cover listing every student's total and the 缺考 and 未扫描 students. 按学生: a class's (or one
 * student's) sheets over a date range, each page stamped with that homework's score, as one PDF or a ZIP
 * of one PDF per student. The server binds in the background; this page polls the job's progress and
 * offers the file when it is done (or says in Chinese why it failed). The job's id is kept in the address
 * (`?jobId=`), so a reload, or a server restart meanwhile, finds the same job again (the server keeps jobs).
 */
import { Button, Input, Radio, RadioGroup, Typography } from '@douyinfe/semi-ui-19';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { BINDING_JOB_STATUS_LABELS, type BindingJob, type BindingJobCreate } from '../../../shared/contract/binding';
import { LabelledSelect } from '../../../shared/ui/labelled-select';
import { useRemote } from '../../../shared/ui/use-remote';
import { downloadBindingFile, fetchBindingJob, startBindingJob } from '../binding-api';
import { ClassSelect } from '../class-select';
import { fetchHomeworkPage } from '../papers-api';
import { usePapersServices } from '../papers-services';
import { useClassStudents } from '../use-class-students';
import styles from './paper-binding-page.module.css';
import { ProgressBar } from '../../../shared/ui/progress-bar';

const POLL_MS = 1000;

const isoDate = (date: Date) => date.toISOString().slice(0, 10);

/** The last half year: about one term. */
function defaultTerm(): { from: string; to: string } {
  const to = new Date();
  const from = new Date(to);
  from.setMonth(from.getMonth() - 6);
  return { from: isoDate(from), to: isoDate(to) };
}

export function PaperBindingPage() {
  const { http } = usePapersServices();
  const [kind, setKind] = useState<'homework' | 'students'>('homework');
  const [classId, setClassId] = useState<number | undefined>();
  const [homeworkId, setHomeworkId] = useState<number | undefined>();
  const [studentId, setStudentId] = useState<number | undefined>();
  const [term, setTerm] = useState(defaultTerm);
  const [format, setFormat] = useState<'pdf' | 'zip'>('zip');
  const [ownJob, setJob] = useState<BindingJob | null>(null);
  const [starting, setStarting] = useState(false);
  const [params, setParams] = useSearchParams();
  const jobId = params.get('jobId');

  // The job named in the address (after a reload) until this page has its own answer about it.
  const listed = useRemote(jobId && ownJob?.id !== jobId ? `binding-job:${jobId}` : null, () => fetchBindingJob(http, jobId!));
  const job = !jobId || ownJob?.id === jobId ? ownJob : listed.data?.id === jobId ? listed.data : ownJob;

  const homework = useRemote(classId ? `binding-homework:${classId}` : null, () =>
    fetchHomeworkPage(http, { classId, page: 1, pageSize: 100 }),
  );
  const { students } = useClassStudents(kind === 'students' ? classId : undefined);

  // Polls a running job until it is done or failed.
  const running = job?.status === 'running' ? job.id : null;
  useEffect(() => {
    if (!running) return;
    let stopped = false;
    const timer = setInterval(() => {
      fetchBindingJob(http, running)
        .then((next) => {
          if (!stopped) setJob(next);
        })
        .catch(() => undefined);
    }, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [http, running]);

  const ready = classId !== undefined && (kind === 'students' ? term.from !== '' && term.to !== '' : homeworkId !== undefined);

  async function start() {
    if (!ready) return;
    const input: BindingJobCreate =
      kind === 'homework'
        ? { kind, classId, homeworkId: homeworkId! }
        : { kind, classId, from: term.from, to: term.to, format, ...(studentId ? { studentId } : {}) };
    setStarting(true);
    try {
      const started = await startBindingJob(http, input);
      setJob(started);
      setParams((current) => {
        const next = new URLSearchParams(current);
        next.set('jobId', started.id);
        return next;
      });
    } catch {
      // The HTTP client has shown the server's message.
    } finally {
      setStarting(false);
    }
  }

  const percent = job && job.total > 0 ? Math.round((job.done / job.total) * 100) : job?.status === 'done' ? 100 : 0;

  return (
    <main className={styles.page}>
      <Typography.Title heading={3}>装订</Typography.Title>
      <Typography.Paragraph type="tertiary" className={styles.intro}>
        把已扫描的答题卡装订成
        PDF：按作业装订一个班（封面列出每位学生的总分、缺考和未扫描的学生），或按学生装订一段时间（一个学期）的全部作业，每页印有该次作业的得分。
      </Typography.Paragraph>
      <RadioGroup type="button" value={kind} onChange={(event) => setKind(event.target.value as 'homework' | 'students')}>
        <Radio value="homework">按作业装订</Radio>
        <Radio value="students">按学生装订</Radio>
      </RadioGroup>
      <div className={styles.form}>
        <ClassSelect
          value={classId}
          onChange={(value) => {
            setClassId(value);
            setHomeworkId(undefined);
            setStudentId(undefined);
          }}
        />
        {kind === 'homework' ? (
          <LabelledSelect
            label="作业"
            placeholder={classId ? '请选择作业' : '请先选择班级'}
            style={{ width: 280 }}
            loading={homework.loading}
            value={homeworkId}
            emptyContent="该班级暂无作业"
            optionList={(homework.data?.list ?? []).map((h) => ({ value: h.id, label: `${h.title}（${h.startDate}）` }))}
            onChange={(value) => setHomeworkId(value === undefined || value === null ? undefined : Number(value))}
          />
        ) : (
          <>
            <LabelledSelect
              label="学生"
              placeholder="全班学生"
              showClear
              style={{ width: 180 }}
              value={studentId}
              optionList={students.map((s) => ({ value: s.id, label: `${s.name}（${s.code}）` }))}
              onChange={(value) => setStudentId(value === undefined || value === null ? undefined : Number(value))}
            />
            <label className={styles.field}>
              <Typography.Text size="small">开始日期</Typography.Text>
              <Input type="date" aria-label="开始日期" value={term.from} onChange={(from) => setTerm((t) => ({ ...t, from }))} />
            </label>
            <label className={styles.field}>
              <Typography.Text size="small">结束日期</Typography.Text>
              <Input type="date" aria-label="结束日期" value={term.to} onChange={(to) => setTerm((t) => ({ ...t, to }))} />
            </label>
            <RadioGroup value={format} onChange={(event) => setFormat(event.target.value as 'pdf' | 'zip')} aria-label="文件形式">
              <Radio value="zip">每人一个 PDF（ZIP）</Radio>
              <Radio value="pdf">合并为一个 PDF</Radio>
            </RadioGroup>
          </>
        )}
        <Button theme="solid" disabled={!ready || job?.status === 'running'} loading={starting} onClick={() => void start()}>
          开始装订
        </Button>
      </div>
      {job && (
        <section className={styles.job} aria-label="装订任务">
          <div className={styles.jobHead}>
            <Typography.Text strong>{job.title}</Typography.Text>
            <Typography.Text type={job.status === 'done' ? 'success' : job.status === 'failed' ? 'danger' : 'secondary'}>
              {BINDING_JOB_STATUS_LABELS[job.status]}
            </Typography.Text>
          </div>
          <ProgressBar
            percent={percent}
            aria-label="装订进度"
            stroke={job.status === 'failed' ? 'var(--semi-color-danger)' : undefined}
          />
          <Typography.Text
            type="tertiary"
            size="small"
          >{`已装订 ${job.done} / ${job.total} 名学生（${percent}%）`}</Typography.Text>
          {job.status === 'failed' && (
            <Typography.Paragraph type="danger" className={styles.error}>
              {job.error ?? '装订失败'}
            </Typography.Paragraph>
          )}
          {job.status === 'done' && (
            <div className={styles.download}>
              <Button theme="solid" type="primary" onClick={() => void downloadBindingFile(http, job)}>
                下载
              </Button>
              <Typography.Text type="tertiary" className={styles.fileName}>
                {job.fileName}
              </Typography.Text>
            </div>
          )}
        </section>
      )}
    </main>
  );
}
