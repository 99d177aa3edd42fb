/**
 * 生成错题重练: the set maker, opened from /rehearse with the class, subject and students in view. The
 * teacher chooses personal sets (举一反三: each student's own wrong questions plus similar questions) or
 * the class's common wrong questions (得分率 below a line), the students, N, the order and the line;
 * previews any student's set with why each question was picked, swaps a similar question for another
 * candidate, then makes it: a re-practice homework, printed as one PDF per class (a cover listing who
 * gets what, then each student's paper and their own answer sheet) with a progress bar that follows the
 * server student by student (GET /rehearse/sets/pdf-progress/:key), or per student. With 并附班级共性错题,
 * making personal sets also makes the class's common set (得分率 below the line) and prints both as one
 * job: a cover listing the common set and each student's own set, the common set's papers and sheets,
 * then each student's.
 * Every rule is the server's; this component only asks and shows.
 */
import { IconDownload } from '@douyinfe/semi-icons';
import {
  Banner,
  Button,
  Checkbox,
  Empty,
  Input,
  InputNumber,
  Radio,
  RadioGroup,
  Select,
  SideSheet,
  Spin,
  Tag,
  Typography,
} from '@douyinfe/semi-ui-19';
import { useEffect, useMemo, useState } from 'react';
import {
  DIFFICULTY_NAMES,
  QUESTION_TYPE_NAMES,
  type SetCreated,
  type SetItem,
  type SetOptions,
  type SetPreview,
  type SetSwap,
} from '../../shared/contract/rehearse-sets';
import { createSet, downloadSetPdf, newProgressKey, previewSet, readPdfProgress } from './set-maker-api';
import { useRehearseServices } from './rehearse-services';
import styles from './set-maker.module.css';
import { ProgressBar } from '../../shared/ui/progress-bar';

export type SetMakerProps = {
  visible: boolean;
  onClose: () => void;
  schoolYearId: number | null;
  classId: number;
  className: string;
  subjectId: number | null;
  subjectName: string;
  /** Students of the class with questions still to redo (under the page's filters). */
  students: { id: number; name: string; code: string; open: number }[];
};

type Kind = 'personal' | 'class';

/** The common set's title when made with the personal sets. */
const commonTitle = (title: string) => `${title.trim()}（共性错题）`.slice(0, 60);
const pdfName = (title: string, className: string, combined: boolean) =>
  `${title.trim()}${combined ? '（含共性错题）' : ''}-${className}.pdf`;

const today = () => new Date().toISOString().slice(0, 10);
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const KIND_TAGS: Record<SetItem['kind'], { label: string; color: 'red' | 'blue' | 'orange' }> = {
  own: { label: '原题', color: 'red' },
  similar: { label: '同类题', color: 'blue' },
  class: { label: '共性错题', color: 'orange' },
};

/**
 * The set maker as /rehearse loads it (when 生成错题重练 is first pressed): mounted closed, then opened on the
 * next frame, as when it was mounted with the page; a side sheet mounted already open did not always show.
 */
export function LoadedSetMaker(props: SetMakerProps) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setMounted(true));
    return () => cancelAnimationFrame(frame);
  }, []);
  return <SetMaker {...props} visible={mounted && props.visible} />;
}

export function SetMaker(props: SetMakerProps) {
  const { visible, onClose, schoolYearId, classId, className, subjectId, subjectName, students } = props;
  const { http } = useRehearseServices();
  const [kind, setKind] = useState<Kind>('personal');
  const [chosen, setChosen] = useState<number[]>([]);
  const [count, setCount] = useState(3);
  const [order, setOrder] = useState<'recent' | 'most'>('recent');
  const [similar, setSimilar] = useState(1);
  const [line, setLine] = useState(60);
  const [swaps, setSwaps] = useState<SetSwap[]>([]);
  const [preview, setPreview] = useState<SetPreview | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [title, setTitle] = useState(`${className}${subjectName}错题重练`);
  const [startDate, setStartDate] = useState(today());
  const [dueDate, setDueDate] = useState(inDays(2));
  const [created, setCreated] = useState<SetCreated | null>(null);
  const [withCommon, setWithCommon] = useState(false);
  const [common, setCommon] = useState<SetCreated | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number; label: string } | null>(null);

  const withOpen = students.filter((s) => s.open > 0);
  const questionById = useMemo(() => new Map((preview?.questions ?? []).map((q) => [q.id, q])), [preview]);

  const options = (nextSwaps: SetSwap[] = swaps): SetOptions | null => {
    if (schoolYearId === null || subjectId === null) return null;
    return {
      schoolYearId,
      subjectId,
      classIds: [classId],
      ...(chosen.length > 0 ? { studentIds: chosen } : {}),
      kind,
      count,
      order,
      similarPerQuestion: similar,
      linePercent: line,
      seed: classId,
      swaps: nextSwaps,
    };
  };

  async function runPreview(nextSwaps: SetSwap[] = swaps) {
    const body = options(nextSwaps);
    if (!body) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await previewSet(http, body);
      setPreview(answer);
      setSwaps(nextSwaps);
      setCreated(null);
      setCommon(null);
      setNotice(null);
      if (selected === null || !answer.students.some((s) => s.studentId === selected)) {
        setSelected(answer.students.find((s) => s.items.length > 0)?.studentId ?? answer.students[0]?.studentId ?? null);
      }
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  function swap(studentId: number, position: number, questionId: number) {
    void runPreview([
      ...swaps.filter((s) => !(s.studentId === studentId && s.position === position)),
      { studentId, position, questionId },
    ]);
  }

  async function make() {
    const body = options();
    if (!body || !preview) return;
    setBusy(true);
    setError(null);
    // Steps: making the set, then each student's paper and sheet in the PDF, then writing the file.
    const chosenCount = preview.students.filter((s) => preview.kind === 'class' || s.items.length > 0).length;
    setProgress({ done: 0, total: chosenCount + 2, label: '正在生成重练作业…' });
    setNotice(null);
    let polling: ReturnType<typeof setInterval> | undefined;
    try {
      const made = await createSet(http, { ...body, title: title.trim(), startDate, dueDate });
      setCreated(made);
      // The class's common set from the same data, for the whole class, printed in the same job.
      let commonMade: SetCreated | null = null;
      if (body.kind === 'personal' && withCommon) {
        const { studentIds: _students, ...whole } = body;
        try {
          commonMade = await createSet(http, {
            ...whole,
            kind: 'class',
            swaps: [],
            title: commonTitle(title),
            startDate,
            dueDate,
          });
          setCommon(commonMade);
        } catch (e) {
          setNotice(`未生成班级共性错题：${(e as Error).message}。仅打印个人举一反三。`);
        }
      }
      const printed = made.students + (commonMade?.students ?? 0);
      const total = printed + 2;
      setProgress({ done: 1, total, label: `正在生成 PDF：${className} 0/${printed} 份…` });
      const key = newProgressKey();
      let finished = false;
      polling = setInterval(() => {
        void readPdfProgress(http, key).then((p) => {
          if (!p || finished) return;
          setProgress({
            done: 1 + p.done,
            total: p.total + 2,
            label:
              p.stage === 'students'
                ? `正在生成 PDF：${className} ${p.done}/${p.total} 份…`
                : `正在保存 PDF：${className}（${p.total} 份）…`,
          });
        });
      }, 400);
      await downloadSetPdf(http, made.setId, pdfName(title, className, commonMade !== null), {
        classId,
        progress: key,
        ...(commonMade ? { with: commonMade.setId } : {}),
      });
      finished = true;
      setProgress({
        done: total,
        total,
        label: commonMade
          ? `已生成：班级共性错题 ${commonMade.students} 名学生共 ${commonMade.questions} 道题；个人举一反三 ${made.students} 名学生共 ${made.questions} 道题（同一个 PDF）`
          : `已生成：${made.students} 名学生，共 ${made.questions} 道题`,
      });
    } catch (e) {
      setError((e as Error).message);
      setProgress(null);
    } finally {
      clearInterval(polling);
      setBusy(false);
    }
  }

  const current = preview?.students.find((s) => s.studentId === selected) ?? null;
  const items = preview?.kind === 'class' ? preview.classItems : (current?.items ?? []);
  const ready = schoolYearId !== null && subjectId !== null;

  return (
    <SideSheet
      title="生成错题重练"
      visible={visible}
      onCancel={onClose}
      width="min(1100px, 100vw)"
      bodyStyle={{ padding: '0 16px 16px' }}
    >
      {!ready ? (
        <Banner type="warning" fullMode={false} description="请先在筛选中选择学年和学科，再生成错题重练。" />
      ) : (
        <div className={styles.maker}>
          <Typography.Paragraph type="tertiary">
            {className} · {subjectName}：{withOpen.length} 名学生共有 {withOpen.reduce((sum, s) => sum + s.open, 0)}{' '}
            道待重练的错题。每位学生的重练卷打印为试卷和答题卡（二维码含学号），扫描后像普通作业一样阅卷，结果计入错题本的掌握情况。
          </Typography.Paragraph>
          <div className={styles.controls}>
            <label>
              <span>类型</span>
              <RadioGroup type="button" value={kind} onChange={(e) => setKind(e.target.value as Kind)} aria-label="类型">
                <Radio value="personal">个人举一反三</Radio>
                <Radio value="class">班级共性错题</Radio>
              </RadioGroup>
            </label>
            {kind === 'personal' ? (
              <>
                <label>
                  <span>学生</span>
                  <Select
                    multiple
                    maxTagCount={2}
                    placeholder="全班"
                    value={chosen}
                    onChange={(v) => setChosen(v as number[])}
                    optionList={students.map((s) => ({ value: s.id, label: `${s.name}（${s.open}）` }))}
                    className={styles.students}
                    aria-label="学生"
                    filter
                  />
                </label>
                <label>
                  <span>每人错题数</span>
                  <InputNumber min={1} max={10} value={count} onNumberChange={(v) => setCount(v || 1)} aria-label="每人错题数" />
                </label>
                <label>
                  <span>选题</span>
                  <RadioGroup value={order} onChange={(e) => setOrder(e.target.value as 'recent' | 'most')} aria-label="选题">
                    <Radio value="recent">最近做错</Radio>
                    <Radio value="most">错得最多</Radio>
                  </RadioGroup>
                </label>
                <label>
                  <span>每题同类题</span>
                  <InputNumber
                    min={0}
                    max={3}
                    value={similar}
                    onNumberChange={(v) => setSimilar(v ?? 0)}
                    aria-label="每题同类题"
                  />
                </label>
                <Checkbox checked={withCommon} onChange={(e) => setWithCommon(Boolean(e.target.checked))}>
                  并附班级共性错题（同一个打印任务）
                </Checkbox>
              </>
            ) : null}
            {kind === 'class' || withCommon ? (
              <label>
                <span>重练线（得分率低于）</span>
                <InputNumber
                  min={1}
                  max={100}
                  value={line}
                  suffix="%"
                  onNumberChange={(v) => setLine(v || 60)}
                  aria-label="重练线"
                />
              </label>
            ) : null}
            <Button theme="solid" loading={busy && !progress} onClick={() => void runPreview([])}>
              预览
            </Button>
          </div>
          {error ? <Banner type="danger" fullMode={false} description={error} closeIcon={null} /> : null}
          {notice ? <Banner type="warning" fullMode={false} description={notice} closeIcon={null} /> : null}

          {preview === null ? (
            <Empty description="选择后点“预览”，查看每位学生的题目和选题理由" className={styles.empty} />
          ) : (
            <Spin spinning={busy && !progress}>
              <div className={styles.preview}>
                {preview.kind === 'personal' ? (
                  <ul className={styles.studentList} aria-label="学生列表">
                    {preview.students.map((s) => (
                      <li key={s.studentId}>
                        <button
                          type="button"
                          className={s.studentId === selected ? `${styles.studentRow} ${styles.active}` : styles.studentRow}
                          onClick={() => setSelected(s.studentId)}
                        >
                          <span>
                            {s.name} <small>{s.code}</small>
                          </span>
                          <small>{s.items.length > 0 ? `${s.items.length} 题` : '无错题'}</small>
                        </button>
                        {created && s.items.length > 0 ? (
                          <Button
                            size="small"
                            theme="borderless"
                            icon={<IconDownload />}
                            aria-label={`下载 ${s.name} 的 PDF`}
                            onClick={() =>
                              void downloadSetPdf(http, created.setId, `${title.trim()}-${s.code}${s.name}.pdf`, {
                                studentId: s.studentId,
                              })
                            }
                          />
                        ) : null}
                      </li>
                    ))}
                  </ul>
                ) : null}
                <section className={styles.items} aria-label="题目预览">
                  <Typography.Title heading={6}>
                    {preview.kind === 'class'
                      ? `全班共用：得分率低于 ${line}% 的 ${items.length} 道题`
                      : current
                        ? `${current.name}（${current.code}）· ${items.length} 题`
                        : ''}
                  </Typography.Title>
                  {items.length === 0 ? (
                    <Empty description={preview.kind === 'class' ? '没有低于重练线的题' : '该生没有待重练的错题'} />
                  ) : (
                    <ol>
                      {items.map((item) => {
                        const q = questionById.get(item.questionId);
                        const tag = KIND_TAGS[item.kind];
                        return (
                          <li key={item.position} className={styles.item}>
                            <div className={styles.itemHead}>
                              <strong>第 {item.position} 题</strong>
                              <Tag color={tag.color} size="small">
                                {tag.label}
                              </Tag>
                              <Tag size="small">{QUESTION_TYPE_NAMES[item.reason.type] ?? item.reason.type}</Tag>
                              <Tag size="small">{DIFFICULTY_NAMES[item.reason.difficulty]}</Tag>
                            </div>
                            <p className={styles.stem}>{q?.stem}</p>
                            {q && q.options.length > 0 ? (
                              <p className={styles.options}>{q.options.map((o, i) => `${'ABCDEFGH'[i]}. ${o}`).join('　')}</p>
                            ) : null}
                            <p className={styles.reason}>理由：{item.reason.text}</p>
                            {item.kind === 'similar' && current ? (
                              <Select
                                size="small"
                                placeholder={item.alternatives.length > 0 ? '换一题' : '没有其他候选题'}
                                disabled={item.alternatives.length === 0 || busy}
                                aria-label={`第 ${item.position} 题换一题`}
                                className={styles.swap}
                                value={undefined}
                                onChange={(v) => swap(current.studentId, item.position, v as number)}
                                optionList={item.alternatives.map((id) => {
                                  const alt = questionById.get(id);
                                  return {
                                    value: id,
                                    label: `${QUESTION_TYPE_NAMES[alt?.type ?? ''] ?? ''} · ${DIFFICULTY_NAMES[alt?.difficulty ?? 0] ?? ''} · ${(alt?.stem ?? '').slice(0, 40)}`,
                                  };
                                })}
                              />
                            ) : null}
                          </li>
                        );
                      })}
                    </ol>
                  )}
                </section>
              </div>
              <div className={styles.make}>
                <label>
                  <span>标题</span>
                  <Input value={title} onChange={setTitle} maxLength={60} aria-label="标题" placeholder="重练作业的标题" />
                </label>
                <label>
                  <span>开始</span>
                  <input type="date" value={startDate} onChange={(e) => setStartDate(e.target.value)} aria-label="开始日期" />
                </label>
                <label>
                  <span>截止</span>
                  <input type="date" value={dueDate} onChange={(e) => setDueDate(e.target.value)} aria-label="截止日期" />
                </label>
                <Button
                  theme="solid"
                  type="primary"
                  disabled={busy || !title.trim() || created !== null}
                  onClick={() => void make()}
                >
                  生成并打印
                </Button>
                {created ? (
                  <Button
                    icon={<IconDownload />}
                    onClick={() => void downloadSetPdf(http, created.setId, `${title.trim()}-${className}.pdf`, { classId })}
                  >
                    下载全班 PDF
                  </Button>
                ) : null}
                {created && common ? (
                  <Button
                    icon={<IconDownload />}
                    onClick={() =>
                      void downloadSetPdf(http, created.setId, pdfName(title, className, true), { classId, with: common.setId })
                    }
                  >
                    下载合并 PDF（含共性错题）
                  </Button>
                ) : null}
              </div>
              {progress ? (
                <div className={styles.progress} aria-live="polite">
                  <ProgressBar
                    percent={Math.round((progress.done / progress.total) * 100)}
                    showInfo
                    aria-label="生成进度"
                    stroke={progress.done === progress.total ? 'var(--semi-color-success)' : undefined}
                  />
                  <Typography.Text type="tertiary">{progress.label}</Typography.Text>
                  {created && progress.done === progress.total ? (
                    <Typography.Text>
                      已布置为作业「{title.trim()}」{common ? `和「${commonTitle(title)}」` : ''}
                      ，可在作业列表中扫描答题卡、阅卷；扫描时每位学生的答题卡按其本人的题目识别。
                    </Typography.Text>
                  ) : null}
                </div>
              ) : null}
            </Spin>
          )}
        </div>
      )}
    </SideSheet>
  );
}
