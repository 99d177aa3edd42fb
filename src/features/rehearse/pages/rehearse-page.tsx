/**
 * /rehearse (错题重练): the wrong-question book. Filters (学年, 班级, 学科, 学生, 知识点, 章节, 时间, 错误次数,
 * 掌握情况) live in the URL. 班级错题 lists the class's most-missed questions with their 得分率 and error
 * causes, and its students; 学生错题本 opens a student's book on what is still to redo, each question with
 * the student's answer (options, or the answer image cut from the scan) beside the key and the analysis.
 * The class list exports to Excel; a student's book prints (打印) and downloads as the server's PDF
 * (下载 PDF). 生成错题重练 opens the set maker.
 */
import { IconDownload, IconPrint } from '@douyinfe/semi-icons';
import { Button, Empty, Spin, Tabs, Tag, Tooltip, Typography } from '@douyinfe/semi-ui-19';
import { LazyTable } from '../../../shared/ui/lazy-table';
import { LabelledSelect } from '../../../shared/ui/labelled-select';
import { lazy, Suspense, useMemo, useState } from 'react';
import {
  MASTERY_FILTER_LABELS,
  MASTERY_FILTERS,
  MASTERY_LABELS,
  NO_CAUSE_LABEL,
  type BookEntry,
  type ClassBook,
  type RehearseOptions,
} from '../../../shared/contract/rehearse';
import { DateRangeFilter } from '../../../shared/ui/lazy-date-picker';
import { SMALL_SCREEN_QUERY, useMediaQuery } from '../../../shared/ui/use-media-query';
import {
  type BookParams,
  useClassBook,
  useDownloadClassXlsx,
  useDownloadStudentPdf,
  useRehearseOptions,
  useStudentBook,
} from '../rehearse-api';
import { useRehearseServices } from '../rehearse-services';
import { BookEntryCard } from '../book-entry-card';
import { CauseSettingsButton } from '../cause-settings-button';
import styles from '../rehearse.module.css';
import { useFilters } from '../use-rehearse-filters';

// Not in the first view: the set maker (a side sheet) loads when 生成错题重练 is first pressed, the printable
// book when 打印错题本 is.
const SetMaker = lazy(() => import('../set-maker').then((m) => ({ default: m.LoadedSetMaker })));
const StudentPrint = lazy(() => import('../student-print').then((m) => ({ default: m.StudentPrint })));

const TYPE_LABELS: Record<string, string> = {
  single: '单选题',
  multiple: '多选题',
  judge: '判断题',
  blank: '填空题',
  subjective: '解答题',
};
const pct = (value: number | null) => (value === null ? '—' : `${(value * 100).toFixed(1)}%`);
const SCORE_RATE_HELP = '得分率 = 本班首次作答该题的得分之和 ÷ 满分之和；分母为有成绩的学生，缺考、未扫描不计入，重练卷不计入';
const MASTERY_COLORS = { pending: 'red', redo1: 'orange', redo2: 'amber', mastered: 'green' } as const;

export function RehearsePage() {
  const filters = useFilters();
  const options = useRehearseOptions();
  if (options.isLoading) return <Spin size="large" tip="正在加载…" wrapperClassName={styles.state} spinning />;
  if (options.error || !options.data)
    return <Empty className={styles.state} title="加载失败" description="数据暂时无法读取，请稍后重试" />;
  if (filters.get('print') && filters.num('studentId'))
    return (
      <Suspense fallback={<Spin size="large" wrapperClassName={styles.state} spinning />}>
        <StudentPrint options={options.data} />
      </Suspense>
    );
  return <RehearseBody options={options.data} />;
}

function RehearseBody({ options }: { options: RehearseOptions }) {
  const { schoolYearId: currentYear } = useRehearseServices();
  const { get, num, set, bookFilter: readBookFilter } = useFilters();
  const [makerOpen, setMakerOpen] = useState(false);
  // Mounted from the first opening on, so that closing and reopening keeps the teacher's choices.
  const [makerLoaded, setMakerLoaded] = useState(false);
  const download = useDownloadClassXlsx();
  const downloadPdf = useDownloadStudentPdf();

  const yearId =
    num('schoolYearId') ?? (options.schoolYears.some((y) => y.id === currentYear) ? currentYear : options.schoolYears[0]?.id);
  const yearClasses = options.classes.filter((c) => c.schoolYearId === yearId);
  const classId = num('classId') ?? yearClasses[0]?.id;
  const klass = yearClasses.find((c) => c.id === classId);
  const subjects = options.subjects.filter((s) => !klass || klass.subjectIds === null || klass.subjectIds.includes(s.id));
  const subjectId = num('subjectId');
  const studentId = num('studentId');
  const view = get('view') === 'student' || studentId ? 'student' : 'class';
  const bookFilter: BookParams = readBookFilter();
  const classBook = useClassBook({ classId, ...bookFilter }, classId !== undefined);
  const studentBook = useStudentBook({ studentId, ...bookFilter }, view === 'student' && studentId !== undefined);
  const tags = view === 'student' ? studentBook.data : classBook.data;

  if (options.classes.length === 0) {
    return (
      <div className={styles.page}>
        <Empty
          className={styles.state}
          title="暂无可查看的班级"
          description="您还没有任教的班级；任教安排由学校管理员在团队管理中设置。"
        />
      </div>
    );
  }

  return (
    <div className={styles.page}>
      <div className={styles.head}>
        <Typography.Title heading={4}>错题重练</Typography.Title>
        <div className={styles.actions}>
          {options.canManage ? (
            <CauseSettingsButton causes={options.errorCauses} percent={options.subjectiveWrongPercent} />
          ) : null}
          {view === 'class' && classBook.data ? (
            <Button icon={<IconDownload />} onClick={() => void download({ classId, ...bookFilter }, classBook.data!.klass.name)}>
              导出 Excel
            </Button>
          ) : null}
          {view === 'student' && studentId ? (
            <Button icon={<IconPrint />} onClick={() => set({ print: 1 })}>
              打印错题本
            </Button>
          ) : null}
          {view === 'student' && studentBook.data ? (
            <Button
              icon={<IconDownload />}
              onClick={() => {
                const { student } = studentBook.data!;
                void downloadPdf({ studentId, ...bookFilter }, `${student.className}-${student.code}-${student.name}-错题本.pdf`);
              }}
            >
              下载 PDF
            </Button>
          ) : null}
          <Button
            theme="solid"
            disabled={!classBook.data}
            onClick={() => {
              setMakerLoaded(true);
              setMakerOpen(true);
            }}
          >
            生成错题重练
          </Button>
        </div>
      </div>

      <div className={styles.filters} role="search" aria-label="筛选">
        <LabelledSelect
          label="学年"
          prefix="学年"
          value={yearId ?? undefined}
          optionList={options.schoolYears.map((y) => ({ value: y.id, label: y.name }))}
          onChange={(v) => set({ schoolYearId: v as number, classId: null, studentId: null })}
        />
        <LabelledSelect
          label="班级"
          prefix="班级"
          value={classId}
          optionList={yearClasses.map((c) => ({ value: c.id, label: c.name }))}
          onChange={(v) => set({ classId: v as number, studentId: null })}
        />
        <LabelledSelect
          label="学科"
          prefix="学科"
          value={subjectId ?? 0}
          optionList={[{ value: 0, label: '全部学科' }, ...subjects.map((s) => ({ value: s.id, label: s.name }))]}
          onChange={(v) => set({ subjectId: v === 0 ? null : (v as number), knowledgePointId: null, chapterId: null })}
        />
        <LabelledSelect
          label="学生"
          prefix="学生"
          filter
          value={studentId ?? 0}
          optionList={[
            { value: 0, label: '全班' },
            ...(classBook.data?.students ?? []).map((s) => ({ value: s.id, label: `${s.name}（${s.code}）` })),
          ]}
          onChange={(v) => set({ studentId: v === 0 ? null : (v as number), view: v === 0 ? null : 'student' })}
        />
        <LabelledSelect
          label="知识点"
          prefix="知识点"
          filter
          value={num('knowledgePointId') ?? 0}
          optionList={[
            { value: 0, label: '全部' },
            ...(tags?.knowledgePoints ?? []).map((k) => ({ value: k.id, label: k.name })),
          ]}
          onChange={(v) => set({ knowledgePointId: v === 0 ? null : (v as number) })}
        />
        <LabelledSelect
          label="章节"
          prefix="章节"
          filter
          value={num('chapterId') ?? 0}
          optionList={[{ value: 0, label: '全部' }, ...(tags?.chapters ?? []).map((c) => ({ value: c.id, label: c.name }))]}
          onChange={(v) => set({ chapterId: v === 0 ? null : (v as number) })}
        />
        <DateRangeFilter className={styles.range} from={get('from')} to={get('to')} onChange={(from, to) => set({ from, to })} />
        <LabelledSelect
          label="错误次数"
          prefix="错误次数"
          value={num('minTimesWrong') ?? 1}
          optionList={[1, 2, 3, 5].map((n) => ({ value: n, label: n === 1 ? '不限' : `≥ ${n} 次` }))}
          onChange={(v) => set({ minTimesWrong: v === 1 ? null : (v as number) })}
        />
        <LabelledSelect
          label="掌握情况"
          prefix="掌握情况"
          value={get('mastery') ?? 'open'}
          optionList={MASTERY_FILTERS.map((m) => ({ value: m, label: MASTERY_FILTER_LABELS[m] }))}
          onChange={(v) => set({ mastery: v === 'open' ? null : (v as string) })}
        />
      </div>

      <Tabs
        activeKey={view}
        onChange={(key) => set({ view: key === 'class' ? null : key, studentId: key === 'class' ? null : studentId })}
        type="line"
      >
        <Tabs.TabPane tab="班级错题" itemKey="class">
          {classBook.isLoading ? (
            <Spin size="large" wrapperClassName={styles.state} spinning />
          ) : classBook.data ? (
            <ClassView book={classBook.data} onStudent={(id) => set({ studentId: id, view: 'student' })} />
          ) : (
            <Empty className={styles.state} title="加载失败" />
          )}
        </Tabs.TabPane>
        <Tabs.TabPane tab="学生错题本" itemKey="student">
          {!studentId ? (
            <Empty
              className={styles.state}
              title="请选择学生"
              description="在上方「学生」中选择，或在班级错题的学生列表中点击姓名。"
            />
          ) : studentBook.isLoading ? (
            <Spin size="large" wrapperClassName={styles.state} spinning />
          ) : studentBook.data ? (
            <StudentView entries={studentBook.data.entries} counts={studentBook.data.counts} causes={options.errorCauses} />
          ) : (
            <Empty className={styles.state} title="加载失败" />
          )}
        </Tabs.TabPane>
      </Tabs>

      {makerLoaded && classBook.data && classId !== undefined ? (
        <Suspense fallback={<Spin size="large" wrapperClassName={styles.state} spinning />}>
          <SetMaker
            visible={makerOpen}
            onClose={() => setMakerOpen(false)}
            schoolYearId={yearId ?? null}
            classId={classId}
            className={classBook.data.klass.name}
            subjectId={subjectId ?? null}
            subjectName={options.subjects.find((s) => s.id === subjectId)?.name ?? ''}
            students={classBook.data.students}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

/** The most-missed list on a phone: one card per question (the table's columns as lines), ten at a time. */
function MissedCards({ questions }: { questions: ClassBook['questions'] }) {
  const { RichText } = useRehearseServices();
  const [shown, setShown] = useState(10);
  if (questions.length === 0) return <Empty title="没有符合条件的错题" />;
  return (
    <>
      <ol className={styles.missedCards}>
        {questions.slice(0, shown).map((q, index) => (
          <li key={q.questionId} className={styles.missedCard}>
            <div className={styles.missedHead}>
              <strong>{index + 1}.</strong>
              <span>{TYPE_LABELS[q.type] ?? q.type}</span>
              <span className={styles.muted}>{q.knowledgePoints.join('、') || '—'}</span>
            </div>
            <div className={styles.stemCell}>
              <RichText text={q.stem} />
            </div>
            <div className={styles.missedFigures}>
              <span>错题人数 {q.missedBy}</span>
              <span>
                未掌握 / 已掌握 {q.open} / {q.mastered}
              </span>
              <span>
                得分率 {pct(q.scoreRate)}（{q.attempts} 名学生有成绩）
              </span>
            </div>
            {q.causes.length > 0 ? (
              <div>
                {q.causes.map((c) => (
                  <Tag key={c.cause} className={styles.causeTag}>
                    {c.cause} {c.count}
                  </Tag>
                ))}
              </div>
            ) : null}
          </li>
        ))}
      </ol>
      {shown < questions.length ? (
        <Button block onClick={() => setShown(shown + 10)}>
          显示更多（还有 {questions.length - shown} 题）
        </Button>
      ) : null}
    </>
  );
}

function ClassView({ book, onStudent }: { book: ClassBook; onStudent: (id: number) => void }) {
  const { RichText } = useRehearseServices();
  const small = useMediaQuery(SMALL_SCREEN_QUERY);
  const [cause, setCause] = useState<string | null>(null);
  const shown = useMemo(
    () => (cause === null ? book.questions : book.questions.filter((q) => q.causes.some((c) => c.cause === cause))),
    [book.questions, cause],
  );
  return (
    <div className={styles.classView}>
      <section aria-label="按错因">
        <Typography.Title heading={6}>按错因</Typography.Title>
        <div className={styles.causes}>
          <Tag size="large" color={cause === null ? 'blue' : 'white'} onClick={() => setCause(null)}>
            全部 {book.causes.reduce((s, c) => s + c.count, 0)}
          </Tag>
          {book.causes.map((c) => (
            <Tag key={c.cause} size="large" color={cause === c.cause ? 'blue' : 'white'} onClick={() => setCause(c.cause)}>
              {c.cause} {c.count}
            </Tag>
          ))}
        </div>
      </section>
      <section aria-label="高频错题">
        <Typography.Title heading={6}>高频错题（{shown.length}）</Typography.Title>
        {small ? (
          <MissedCards questions={shown} />
        ) : (
          <LazyTable
            size="small"
            rowKey="questionId"
            dataSource={shown}
            pagination={{ pageSize: 10 }}
            empty={<Empty title="没有符合条件的错题" />}
            // As wide as the content (题目 takes what the fixed columns leave), scrolling sideways below 1120 px.
            scroll={{ x: 'max(100%, 1120px)' }}
            columns={[
              { title: '序号', width: 60, render: (_: unknown, __: unknown, index: number) => index + 1 },
              {
                title: '题目',
                dataIndex: 'stem',
                render: (stem: string) => (
                  <div className={styles.stemCell}>
                    <RichText text={stem} />
                  </div>
                ),
              },
              { title: '题型', dataIndex: 'type', width: 80, render: (type: string) => TYPE_LABELS[type] ?? type },
              { title: '知识点', dataIndex: 'knowledgePoints', width: 140, render: (kps: string[]) => kps.join('、') || '—' },
              { title: '错题人数', dataIndex: 'missedBy', width: 90 },
              {
                title: '未掌握 / 已掌握',
                width: 120,
                render: (_: unknown, q: ClassBook['questions'][number]) => `${q.open} / ${q.mastered}`,
              },
              {
                title: (
                  <Tooltip content={SCORE_RATE_HELP}>
                    <span>得分率 ⓘ</span>
                  </Tooltip>
                ),
                width: 110,
                render: (_: unknown, q: ClassBook['questions'][number]) => (
                  <Tooltip content={`${q.attempts} 名学生有成绩`}>{pct(q.scoreRate)}</Tooltip>
                ),
              },
              {
                title: '错因',
                width: 180,
                render: (_: unknown, q: ClassBook['questions'][number]) =>
                  q.causes.map((c) => (
                    <Tag key={c.cause} className={styles.causeTag}>
                      {c.cause} {c.count}
                    </Tag>
                  )),
              },
            ]}
          />
        )}
      </section>
      <section aria-label="学生">
        <Typography.Title heading={6}>学生（点击姓名查看错题本）</Typography.Title>
        <div className={styles.students}>
          {book.students.map((s) => (
            <Button key={s.id} size="small" onClick={() => onStudent(s.id)}>
              {s.name} <span className={styles.count}>{s.open}</span>
            </Button>
          ))}
        </div>
      </section>
    </div>
  );
}

function StudentView({
  entries,
  counts,
  causes,
}: {
  entries: BookEntry[];
  counts: Record<keyof typeof MASTERY_LABELS, number>;
  causes: string[];
}) {
  // The book grouped by error cause, as the class view is: the causes its questions have, with counts.
  const [cause, setCause] = useState<string | null>(null);
  const byCause = useMemo(() => {
    const counted = new Map<string, number>();
    for (const e of entries) counted.set(e.errorCause ?? NO_CAUSE_LABEL, (counted.get(e.errorCause ?? NO_CAUSE_LABEL) ?? 0) + 1);
    return [...counted].sort((a, b) => b[1] - a[1]);
  }, [entries]);
  const shown = cause === null ? entries : entries.filter((e) => (e.errorCause ?? NO_CAUSE_LABEL) === cause);
  return (
    <div>
      <div className={styles.causes}>
        {(Object.keys(MASTERY_LABELS) as (keyof typeof MASTERY_LABELS)[]).map((state) => (
          <Tag key={state} size="large" color={MASTERY_COLORS[state]}>
            {MASTERY_LABELS[state]} {counts[state]}
          </Tag>
        ))}
      </div>
      {byCause.some(([c]) => c !== NO_CAUSE_LABEL) ? (
        <section aria-label="按错因" className={styles.causes}>
          <Tag size="large" color={cause === null ? 'blue' : 'white'} onClick={() => setCause(null)}>
            全部 {entries.length}
          </Tag>
          {byCause.map(([c, count]) => (
            <Tag key={c} size="large" color={cause === c ? 'blue' : 'white'} onClick={() => setCause(c)}>
              {c} {count}
            </Tag>
          ))}
        </section>
      ) : null}
      {shown.length === 0 ? (
        <Empty className={styles.state} title="没有符合条件的错题" />
      ) : (
        <ol className={styles.entries}>
          {shown.map((entry, index) => (
            <li key={entry.id}>
              <BookEntryCard entry={entry} index={index + 1} causes={causes} />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
