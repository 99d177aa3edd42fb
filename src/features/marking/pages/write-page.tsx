/**
 * /write?homeworkId=&questionNo=[&mode=arbitration] (阅卷内页): one answer at a time. The cut-out answer
 * image large, zoomable and pannable, with tick / cross / comment marks placed on it; a score typed on
 * the keypad or keyboard, quick scores, the problem-paper flag; Enter submits and brings the next
 * answer, ArrowLeft/ArrowRight walk back through my scored answers (to change a score) and forward
 * again, Escape clears. When nothing is left: 本题已全部阅完.
 */
import { IconArrowLeft } from '@douyinfe/semi-icons';
import { Banner, Button, Empty, Input, Modal, Radio, RadioGroup, Spin, Tag, Typography } from '@douyinfe/semi-ui-19';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { annotationSchema, type Annotation, type MarkingTask, type OwnQuestion } from '../../../shared/contract/marking';
import { LazyRichText } from '../../../shared/ui/lazy-rich-text';
import { AnswerViewer, type MarkTool } from '../answer-viewer';
import { describeOtherScores } from '../arbitration-tab';
import { answerImageUrl, fetchErrorCauses } from '../marking-api';
import { useMarkingServices } from '../marking-services';
import { checkScore, EMPTY_SCORE_MESSAGE, formatScore, pressScoreKey, scoreKeyOf, type ScoreKey } from '../score-input';
import { ScoreKeypad } from '../score-keypad';
import { useImageUrl } from '../use-image-url';
import { useMarkingSession, type MarkingMode, type MarkingSession } from '../use-marking-session';
import styles from '../write.module.css';
import { parsePositiveId } from '../../../shared/lib/query-param';
import { Illustration } from '../../../shared/ui/illustration';
import { ProgressBar } from '../../../shared/ui/progress-bar';

export const ROUND_LABELS: Record<number, string> = { 1: '一评', 2: '二评', 3: '三评', 4: '仲裁' };
export const FINISHED_TITLE = '本题已全部阅完';

/** Input types whose keys are not text (a ticked 问题卷 box must not swallow the Enter that submits). */
const NON_TEXT_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range']);

/**
 * Keys typed into a text field or a dialog are theirs, not the marking shortcuts'. So are Enter on a
 * button or link outside the score panel (history, zoom, 返回阅卷: the keyboard must reach them; a focused
 * keypad or quick-score button still submits) and the arrows on a radio group (the annotation tools).
 */
function ownsKeys(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.closest('[role="dialog"]')) return true;
  if (key === 'Enter' && target.closest('button, a, [role="button"]') && !target.closest('[aria-label="打分"]')) return true;
  if (target instanceof HTMLInputElement) {
    if (target.type === 'radio' && key.startsWith('Arrow')) return true;
    return !NON_TEXT_INPUTS.has(target.type);
  }
  return target.tagName === 'TEXTAREA' || target.tagName === 'SELECT' || target.isContentEditable;
}

/** How many I have marked: the server's count, or (before any answer arrived, or none is left) my history. */
function markedCount(session: { progress: { mine: number } | null; history: readonly unknown[] }): number {
  return session.progress?.mine ?? session.history.length;
}

export function WritePage() {
  const [params] = useSearchParams();
  const homeworkId = parsePositiveId(params.get('homeworkId'));
  const questionNo = parsePositiveId(params.get('questionNo'));
  const mode: MarkingMode = params.get('mode') === 'arbitration' ? 'arbitration' : 'marking';
  if (!homeworkId || !questionNo) return <MissingQuestion homeworkId={homeworkId} />;
  return <MarkingDesk key={`${homeworkId}:${questionNo}:${mode}`} homeworkId={homeworkId} questionNo={questionNo} mode={mode} />;
}

function MissingQuestion({ homeworkId }: { homeworkId: number | null }) {
  const navigate = useNavigate();
  return (
    <main className={styles.page}>
      <div className={`${styles.card} ${styles.state}`}>
        <Empty title="请先选择要阅的题目" description="从「阅卷」页的阅卷任务中点击「开始阅卷」进入">
          <Button theme="solid" onClick={() => navigate(homeworkId ? `/correct?homeworkId=${homeworkId}` : '/correct')}>
            去阅卷
          </Button>
        </Empty>
      </div>
    </main>
  );
}

type Draft = { text: string; annotations: Annotation[]; problem: boolean; replaceOnType: boolean; errorCause: string | null };

function draftOf(task: MarkingTask): Draft {
  return {
    text: task.score === null ? '' : formatScore(task.score),
    annotations: task.annotations,
    problem: task.problem,
    replaceOnType: task.score !== null,
    errorCause: task.errorCause ?? null,
  };
}

function MarkingDesk({ homeworkId, questionNo, mode }: { homeworkId: number; questionNo: number; mode: MarkingMode }) {
  const navigate = useNavigate();
  const session = useMarkingSession(homeworkId, questionNo, mode);
  const { http } = useMarkingServices();
  const [causes, setCauses] = useState<string[]>([]);
  useEffect(() => {
    let live = true;
    fetchErrorCauses(http).then(
      (list) => live && setCauses(list),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [http]);
  // One draft per answer, so going back and forth keeps what was typed (a stable map, never re-set).
  const [drafts] = useState(() => new Map<number, Draft>());
  const backTo = `/correct?homeworkId=${homeworkId}${mode === 'arbitration' ? '&tab=arbitration' : ''}`;
  const { back, forward } = session;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (ownsKeys(event.target, event.key) || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key === 'ArrowLeft') {
        event.preventDefault();
        back();
      } else if (event.key === 'ArrowRight') {
        event.preventDefault();
        forward();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [back, forward]);

  const mine = markedCount(session);
  const left = session.progress?.left ?? 0;
  const total = mine + left;
  const task = session.shown;

  const history = <HistoryPanel session={session} />;

  return (
    <main className={styles.page}>
      <header className={styles.header}>
        <Button icon={<IconArrowLeft />} theme="borderless" onClick={() => navigate(backTo)}>
          返回阅卷
        </Button>
        <Typography.Title heading={4} className={styles.heading}>
          {`第 ${questionNo} 题 · ${mode === 'arbitration' ? '仲裁' : '阅卷'}`}
          {task && task.round > 1 ? <Tag color="violet">{ROUND_LABELS[task.round]}</Tag> : null}
        </Typography.Title>
        <div className={styles.progress} aria-label="我的进度">
          <span>{`我已阅 ${mine} 份 · 剩余 ${left} 份`}</span>
          <ProgressBar
            className={styles.progressBar}
            percent={total === 0 ? 0 : Math.round((mine / total) * 100)}
            aria-label="我的阅卷进度"
            aria-valuetext={`${mine}/${total}`}
          />
        </div>
      </header>
      {task ? (
        <TaskEditor
          key={task.taskId}
          task={task}
          session={session}
          initial={drafts.get(task.taskId) ?? draftOf(task)}
          onDraft={(draft) => drafts.set(task.taskId, draft)}
          onSaved={() => drafts.delete(task.taskId)}
          aside={history}
          causes={causes}
        />
      ) : (
        <div className={styles.body}>
          <div className={styles.main}>
            <NoTaskState session={session} backTo={backTo} mode={mode} />
          </div>
          <aside className={styles.side}>{history}</aside>
        </div>
      )}
    </main>
  );
}

function NoTaskState({ session, backTo, mode }: { session: MarkingSession; backTo: string; mode: MarkingMode }) {
  const navigate = useNavigate();
  if (session.status === 'loading')
    return (
      <div className={styles.state}>
        <Spin size="large" tip="正在获取答卷…" />
      </div>
    );
  if (session.status === 'failed')
    return (
      <div className={styles.state}>
        <Empty
          image={<Illustration name="NoAccess" style={{ width: 150, height: 150 }} />}
          title="无法获取答卷"
          description={session.failure ?? '请稍后重试'}
        >
          <div className={styles.actions}>
            <Button onClick={session.retry}>重试</Button>
            <Button onClick={() => navigate(backTo)}>返回阅卷</Button>
          </div>
        </Empty>
      </div>
    );
  return (
    <div className={styles.state}>
      <Empty
        image={<Illustration name="Success" style={{ width: 150, height: 150 }} />}
        title={mode === 'arbitration' ? '本题已全部仲裁完' : FINISHED_TITLE}
        description={
          session.skipped.length > 0
            ? `还有 ${session.skipped.length} 份跳过的答卷没有阅`
            : `您共阅了 ${markedCount(session)} 份。按 ← 可以回看并修改已给的分数。`
        }
      >
        <div className={styles.actions}>
          {session.skipped.length > 0 ? (
            <Button theme="solid" onClick={session.revisitSkipped}>
              阅跳过的答卷
            </Button>
          ) : null}
          <Button theme={session.skipped.length > 0 ? 'light' : 'solid'} onClick={() => navigate(backTo)}>
            返回阅卷
          </Button>
        </div>
      </Empty>
    </div>
  );
}

function HistoryPanel({ session }: { session: MarkingSession }) {
  const { history, viewing } = session;
  return (
    <section className={styles.card} aria-label="阅卷历史">
      <Typography.Text strong>{`已阅答卷（${history.length}）`}</Typography.Text>
      {history.length === 0 ? (
        <p className={styles.hint}>提交的分数会列在这里，点击可回看并修改。</p>
      ) : (
        <ul className={styles.historyList}>
          {viewing !== null ? (
            <li>
              <button type="button" className={styles.historyItem} onClick={() => session.open(null)}>
                <span>回到当前答卷</span>
                <span>→</span>
              </button>
            </li>
          ) : null}
          {history.map((task, index) => (
            <li key={task.taskId}>
              <button
                type="button"
                className={index === viewing ? `${styles.historyItem} ${styles.historyActive}` : styles.historyItem}
                aria-current={index === viewing ? 'true' : undefined}
                onClick={() => session.open(index)}
              >
                <span>{`第 ${history.length - index} 份`}</span>
                <span>
                  {task.problem ? (
                    <Tag size="small" color="red">
                      问题卷
                    </Tag>
                  ) : null}{' '}
                  {`${formatScore(task.score ?? 0)} 分`}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

type EditorProps = {
  task: MarkingTask;
  session: MarkingSession;
  initial: Draft;
  onDraft: (draft: Draft) => void;
  onSaved: () => void;
  aside: ReactNode;
  /** The school's error causes (错因), one click (or Alt+1…9) with the score. */
  causes: string[];
};

/** One answer being scored; its draft (score text, marks, flag) survives going back and forth. */
function TaskEditor({ task, session, initial, onDraft, onSaved, aside, causes }: EditorProps) {
  const image = useImageUrl(answerImageUrl(task.answerId));
  const [draft, setDraftState] = useState<Draft>(initial);
  const [tool, setTool] = useState<MarkTool>('move');
  const [attempted, setAttempted] = useState(false);
  const [commentAt, setCommentAt] = useState<{ x: number; y: number } | null>(null);
  const draftRef = useRef(draft);

  const setDraft = (change: (d: Draft) => Draft) => {
    const next = change(draftRef.current);
    draftRef.current = next;
    setDraftState(next);
    onDraft(next);
  };

  const check = checkScore(draft.text, task.maxScore);
  const emptyProblem = draft.problem && draft.text === '';
  const error = check.ok || emptyProblem ? null : check.message === EMPTY_SCORE_MESSAGE && !attempted ? null : check.message;

  const press = (key: ScoreKey) =>
    setDraft((d) => ({
      ...d,
      text: pressScoreKey(d.replaceOnType && key !== 'backspace' ? '' : d.text, key),
      replaceOnType: false,
    }));

  const submit = () => {
    const current = draftRef.current;
    const result = checkScore(current.text, task.maxScore);
    setAttempted(true);
    const score = result.ok ? result.score : current.problem && current.text === '' ? 0 : null;
    if (score === null || session.submitting) return;
    void session
      .submit({
        score,
        annotations: current.annotations,
        problem: current.problem,
        // A cause only where marks were lost (none sent: none kept).
        ...(score < task.maxScore && current.errorCause ? { errorCause: current.errorCause } : {}),
      })
      .then((saved) => saved && onSaved());
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (ownsKeys(event.target, event.key)) return;
      // Alt+1…9: the n-th error cause (on/off), by key position so macOS option-digits work too.
      const causeKey = /^Digit([1-9])$/.exec(event.code);
      if (event.altKey && !event.ctrlKey && !event.metaKey && causeKey) {
        const cause = causes[Number(causeKey[1]) - 1];
        if (cause) {
          event.preventDefault();
          setDraft((d) => ({ ...d, errorCause: d.errorCause === cause ? null : cause }));
        }
        return;
      }
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key === 'Enter') {
        // Also keeps a focused keypad button from being "clicked" by the same Enter.
        event.preventDefault();
        // A held Enter must not submit answer after answer.
        if (!event.repeat) submit();
      } else if (event.key === 'Escape') {
        press('clear');
      } else {
        const key = scoreKeyOf(event.key);
        if (key) {
          event.preventDefault();
          press(key);
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const place = (x: number, y: number) => {
    if (tool === 'comment') return setCommentAt({ x, y });
    if (tool === 'tick' || tool === 'cross') setDraft((d) => ({ ...d, annotations: [...d.annotations, { kind: tool, x, y }] }));
  };

  const revisiting = session.viewing !== null;
  return (
    <div className={styles.body}>
      <div className={styles.main}>
        {revisiting ? (
          <Banner
            type="info"
            closeIcon={null}
            description={`正在修改已阅的第 ${session.history.length - (session.viewing ?? 0)} 份答卷（原分 ${formatScore(
              task.score ?? 0,
            )} 分），提交后保存新分数。按 → 回到当前答卷。`}
          />
        ) : null}
        {task.otherScores && task.otherScores.length > 0 ? (
          <Banner type="warning" closeIcon={null} description={`此前评分：${describeOtherScores(task.otherScores)}`} />
        ) : null}
        {task.ownQuestion ? <OwnQuestionPanel questionNo={task.questionNo} question={task.ownQuestion} /> : null}
        <div className={styles.tools}>
          <RadioGroup
            type="button"
            aria-label="标注工具"
            value={tool}
            onChange={(event) => setTool(event.target.value as MarkTool)}
          >
            <Radio value="move">拖动</Radio>
            <Radio value="tick">✓ 勾</Radio>
            <Radio value="cross">✗ 叉</Radio>
            <Radio value="comment">批注</Radio>
          </RadioGroup>
          <Button
            disabled={draft.annotations.length === 0}
            onClick={() => setDraft((d) => ({ ...d, annotations: d.annotations.slice(0, -1) }))}
          >
            撤销标注
          </Button>
          <Button disabled={draft.annotations.length === 0} onClick={() => setDraft((d) => ({ ...d, annotations: [] }))}>
            清除标注
          </Button>
        </div>
        <AnswerViewer
          url={image.url}
          failed={image.failed}
          onRetry={image.retry}
          annotations={draft.annotations}
          tool={tool}
          onPlace={place}
          label={`第 ${task.questionNo} 题答卷`}
        />
      </div>
      <aside className={styles.side}>
        <ScoreKeypad
          text={draft.text}
          maxScore={task.maxScore}
          error={error}
          problem={draft.problem}
          submitting={session.submitting}
          disabled={session.submitting}
          submitLabel={revisiting ? '保存修改' : '提交并阅下一份'}
          onKey={press}
          onQuickScore={(score) => setDraft((d) => ({ ...d, text: formatScore(score), replaceOnType: true }))}
          onProblemChange={(problem) => setDraft((d) => ({ ...d, problem }))}
          causes={causes}
          errorCause={draft.errorCause}
          onCauseChange={(errorCause) => setDraft((d) => ({ ...d, errorCause }))}
          onSubmit={submit}
        />
        {revisiting ? null : (
          <Button block disabled={session.submitting} onClick={session.skip}>
            跳过这份
          </Button>
        )}
        <p className={`${styles.card} ${styles.hint} ${styles.keyHints}`}>
          <kbd>0</kbd>–<kbd>9</kbd> <kbd>.</kbd> 输入分数 · <kbd>Enter</kbd> 提交并阅下一份 · <kbd>←</kbd> <kbd>→</kbd> 回看/前进
          · <kbd>Esc</kbd> 清空
          {causes.length > 0 ? (
            <>
              {' '}
              · <kbd>Alt</kbd>+<kbd>1</kbd>–<kbd>{Math.min(9, causes.length)}</kbd> 错因
            </>
          ) : null}
        </p>
        {aside}
      </aside>
      <CommentDialog
        open={commentAt !== null}
        onCancel={() => setCommentAt(null)}
        onConfirm={(text) => {
          const at = commentAt;
          setCommentAt(null);
          if (at) setDraft((d) => ({ ...d, annotations: [...d.annotations, { kind: 'comment', x: at.x, y: at.y, text }] }));
        }}
      />
    </div>
  );
}

/**
 * A personalised re-practice set gives each student their own paper, so the number alone does not say
 * which question this is: the student's own question, its key and full score, above the answer.
 */
function OwnQuestionPanel({ questionNo, question }: { questionNo: number; question: OwnQuestion }) {
  return (
    <section className={styles.ownQuestion} aria-label="该生本题">
      <Typography.Text strong>{`该生的第 ${questionNo} 题 · 满分 ${formatScore(question.score)} 分`}</Typography.Text>
      <LazyRichText text={question.stem} className={styles.ownStem} />
      {question.options.length > 0 ? (
        <ol className={styles.ownOptions} type="A">
          {question.options.map((option, index) => (
            <li key={index}>
              <LazyRichText text={option} />
            </li>
          ))}
        </ol>
      ) : null}
      <div aria-label="参考答案">
        <Typography.Text type="secondary">参考答案：</Typography.Text>
        {question.answer.map((answer, index) => (
          <LazyRichText key={index} text={answer} className={styles.ownAnswer} />
        ))}
      </div>
      {question.analysis ? (
        <div aria-label="解析">
          <Typography.Text type="secondary">解析：</Typography.Text>
          <LazyRichText text={question.analysis} className={styles.ownAnswer} />
        </div>
      ) : null}
    </section>
  );
}

function CommentDialog({
  open,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  onCancel: () => void;
  onConfirm: (text: string) => void;
}) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const confirm = () => {
    const parsed = annotationSchema.safeParse({ kind: 'comment', x: 0, y: 0, text });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? '请输入批注内容');
    onConfirm(text.trim());
    setText('');
    setError(null);
  };
  const cancel = () => {
    setError(null);
    onCancel();
  };
  return (
    <Modal
      title="添加批注"
      visible={open}
      onCancel={cancel}
      motion={false}
      width={420}
      // Our own buttons: Semi's default ones are named "cancel" / "confirm" for screen readers.
      footer={
        <>
          <Button onClick={cancel}>取消</Button>
          <Button theme="solid" onClick={confirm}>
            添加
          </Button>
        </>
      }
    >
      <Input
        autoFocus
        aria-label="批注内容"
        placeholder="写给学生的批注"
        maxLength={200}
        showClear
        value={text}
        onChange={setText}
        onEnterPress={confirm}
        validateStatus={error ? 'error' : 'default'}
      />
      {error ? (
        <Typography.Text type="danger" size="small">
          {error}
        </Typography.Text>
      ) : null}
    </Modal>
  );
}
