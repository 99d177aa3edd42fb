/**
 * 批量确认 / 批量作废 in 异常处理: the selection bar above the open items (全选, 选择同类, the two bulk
 * actions, keyboard shortcuts) and the dialog that first asks the server what would happen (dry run: how
 * many items the action fits and how many marks would leave the scores), then applies it in parts with a
 * progress bar and reports what was not done. Only actions the server lists for an item are sent for it.
 */
import { Button, Modal, Spin, Tag, Toast, Typography } from '@douyinfe/semi-ui-19';
import { chunk } from 'es-toolkit';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { REVIEW_BULK_MAX, type ReviewItem } from '../../shared/contract/marking';
import { RECOGNITION_PROBLEM_LABELS, type RecognitionProblemKind } from '../../shared/contract/recognition';
import { bulkResolveReview } from './marking-api';
import { useMarkingServices } from './marking-services';
import styles from './marking.module.css';
import {
  acceptHint,
  BULK_ACTION_LABELS,
  bulkPlan,
  type BulkAction,
  REVIEW_ACTION_HINTS,
  REVIEW_ACTION_LABELS,
} from './review-actions';
import { ProgressBar } from '../../shared/ui/progress-bar';

/** Items per request while applying: small enough for the progress bar to move on a large selection. */
const APPLY_PART = 20;

type Dialog = {
  action: BulkAction;
  plan: ReturnType<typeof bulkPlan>;
  phase: 'checking' | 'confirm' | 'running' | 'done';
  marksLost: number;
  processed: number;
  resolved: number;
  /** Items not resolved, with the server's reason. */
  problems: string[];
  /** Why the run ended early (stopped, or a request failed). */
  interrupted: string | null;
};

type Props = {
  /** The open items, in list order. */
  items: readonly ReviewItem[];
  selected: ReadonlySet<number>;
  onSelect: (next: Set<number>) => void;
  /** Some items were resolved: load the lists again. */
  onDone: () => void;
};

export function ReviewBulkBar({ items, selected, onSelect, onDone }: Props) {
  const { http } = useMarkingServices();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const stopRef = useRef(false);
  const chosen = items.filter((item) => selected.has(item.id));
  const allSelected = items.length > 0 && chosen.length === items.length;
  const kinds = [...new Set(items.map((item) => item.kind))];
  const countOf = (action: BulkAction) => bulkPlan(items, selected, action).applicable.length;

  const start = async (action: BulkAction) => {
    const plan = bulkPlan(items, selected, action);
    if (plan.applicable.length === 0) {
      Toast.info(chosen.length === 0 ? '请先选择异常' : `所选异常都不能${REVIEW_ACTION_LABELS[action]}`);
      return;
    }
    setDialog({ action, plan, phase: 'checking', marksLost: 0, processed: 0, resolved: 0, problems: [], interrupted: null });
    try {
      let marksLost = 0;
      for (const part of chunk(
        plan.applicable.map((item) => item.id),
        REVIEW_BULK_MAX,
      )) {
        marksLost += (await bulkResolveReview(http, { itemIds: part, action, dryRun: true })).marksLost;
      }
      setDialog((d) => d && { ...d, phase: 'confirm', marksLost });
    } catch {
      // Toasted by the HTTP client; nothing was changed.
      setDialog(null);
    }
  };

  const run = async (current: Dialog) => {
    stopRef.current = false;
    setDialog({ ...current, phase: 'running' });
    const labelOf = new Map(current.plan.applicable.map((item) => [item.id, RECOGNITION_PROBLEM_LABELS[item.kind]]));
    let { processed, resolved } = current;
    const problems: string[] = [];
    let interrupted: string | null = null;
    for (const part of chunk(
      current.plan.applicable.map((item) => item.id),
      APPLY_PART,
    )) {
      if (stopRef.current) {
        interrupted = `已停止，其余 ${current.plan.applicable.length - processed} 项未处理`;
        break;
      }
      try {
        const result = await bulkResolveReview(http, { itemIds: part, action: current.action, marksLost: current.marksLost });
        for (const row of result.results) {
          if (row.outcome === 'resolved') resolved += 1;
          else problems.push(`${labelOf.get(row.itemId) ?? '异常'}：${row.message ?? '未处理'}`);
        }
      } catch (error) {
        interrupted = `处理中断，其余 ${current.plan.applicable.length - processed} 项未处理：${(error as Error).message || '请稍后重试'}`;
        break;
      }
      processed += part.length;
      setDialog((d) => d && { ...d, processed, resolved });
    }
    setDialog((d) => d && { ...d, phase: 'done', processed, resolved, problems, interrupted });
    onSelect(new Set());
    onDone();
  };

  // Shortcuts while the list is shown and no text field or dialog has the keyboard.
  const onKey = useEffectEvent((event: KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey || event.altKey || dialog) return;
    const target = event.target as HTMLElement | null;
    const typing = target?.closest(
      'input:not([type="checkbox"]):not([type="radio"]), textarea, select, [contenteditable="true"], [role="dialog"], [role="combobox"]',
    );
    if (typing) return;
    const key = event.key.toLowerCase();
    if (key === 'a') onSelect(allSelected ? new Set() : new Set(items.map((item) => item.id)));
    else if (key === 'escape') onSelect(new Set());
    else if (key === 'c') void start('accept');
    else if (key === 'd') void start('discard');
    else return;
    event.preventDefault();
  });
  useEffect(() => {
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const toggleKind = (kind: RecognitionProblemKind) => {
    const ofKind = items.filter((item) => item.kind === kind).map((item) => item.id);
    const next = new Set(selected);
    const all = ofKind.every((id) => next.has(id));
    for (const id of ofKind) {
      if (all) next.delete(id);
      else next.add(id);
    }
    onSelect(next);
  };

  const summary = dialog ? (
    <BulkDialog
      dialog={dialog}
      onRun={() => void run(dialog)}
      onStop={() => (stopRef.current = true)}
      onClose={() => setDialog(null)}
    />
  ) : null;
  // With nothing left open, only a run's summary (until it is closed), at the same place in the tree.
  if (items.length === 0)
    return (
      <>
        {null}
        {summary}
      </>
    );
  return (
    <>
      <div className={styles.bulkBar} role="toolbar" aria-label="批量处理">
        <Button size="small" onClick={() => onSelect(allSelected ? new Set() : new Set(items.map((item) => item.id)))}>
          {allSelected ? '取消全选' : `全选（${items.length}）`}
        </Button>
        <span className={styles.sub}>选择同类：</span>
        {kinds.map((kind) => {
          const ofKind = items.filter((item) => item.kind === kind);
          const pressed = ofKind.every((item) => selected.has(item.id));
          return (
            <Button
              key={kind}
              size="small"
              theme={pressed ? 'solid' : 'light'}
              aria-pressed={pressed}
              onClick={() => toggleKind(kind)}
            >
              {`${RECOGNITION_PROBLEM_LABELS[kind]}（${ofKind.length}）`}
            </Button>
          );
        })}
        <span className={styles.bulkCount} aria-live="polite">{`已选 ${chosen.length} 项`}</span>
        <Button type="primary" theme="solid" disabled={countOf('accept') === 0} onClick={() => void start('accept')}>
          {`${BULK_ACTION_LABELS.accept}（${countOf('accept')}）`}
        </Button>
        <Button type="danger" disabled={countOf('discard') === 0} onClick={() => void start('discard')}>
          {`${BULK_ACTION_LABELS.discard}（${countOf('discard')}）`}
        </Button>
        <span className={styles.sub}>快捷键：A 全选 · Esc 取消选择 · C 批量确认 · D 批量作废 · Shift+点击 连续选择</span>
      </div>
      {summary}
    </>
  );
}

function BulkDialog({
  dialog,
  onRun,
  onStop,
  onClose,
}: {
  dialog: Dialog;
  onRun: () => void;
  onStop: () => void;
  onClose: () => void;
}) {
  const { action, plan, phase } = dialog;
  const verb = REVIEW_ACTION_LABELS[action];
  const total = plan.applicable.length;
  const footer =
    phase === 'confirm' ? (
      <>
        <Button onClick={onClose}>取消</Button>
        <Button theme="solid" type={action === 'discard' ? 'danger' : 'primary'} onClick={onRun}>
          {`${verb} ${total} 项`}
        </Button>
      </>
    ) : phase === 'running' ? (
      <Button onClick={onStop}>停止</Button>
    ) : phase === 'done' ? (
      <Button theme="solid" onClick={onClose}>
        关闭
      </Button>
    ) : null;
  return (
    <Modal
      visible
      title={`${BULK_ACTION_LABELS[action]}：${total} 项`}
      footer={footer}
      closable={phase !== 'running'}
      maskClosable={false}
      onCancel={phase === 'running' ? onStop : onClose}
    >
      {phase === 'checking' ? (
        <Spin tip="正在核对所选异常…" />
      ) : phase === 'confirm' ? (
        <div className={styles.bulkSummary}>
          <p>{`将${verb}以下 ${total} 项异常：`}</p>
          <ul>
            {plan.byKind.map(([kind, count]) => (
              <li key={kind}>
                <Tag size="small">{RECOGNITION_PROBLEM_LABELS[kind]}</Tag>
                {` ${count} 项：${action === 'accept' ? acceptHint(kind) : REVIEW_ACTION_HINTS.discard}`}
              </li>
            ))}
          </ul>
          {plan.skipped > 0 ? <p>{`所选的另外 ${plan.skipped} 项不能${verb}，保持不变。`}</p> : null}
          {dialog.marksLost > 0 ? (
            <Typography.Text type="danger" strong>
              {`这些答题卡上阅卷老师已给的 ${dialog.marksLost} 个分数将被丢弃，无法恢复。`}
            </Typography.Text>
          ) : (
            <Typography.Text type="secondary">不会丢弃任何已给的分数。</Typography.Text>
          )}
        </div>
      ) : (
        <div className={styles.bulkSummary}>
          <ProgressBar percent={Math.round((dialog.processed / Math.max(total, 1)) * 100)} showInfo aria-label="批量处理进度" />
          <p>{phase === 'running' ? `正在处理 ${dialog.processed} / ${total}` : `已${verb} ${dialog.resolved} 项`}</p>
          {phase === 'done' && dialog.interrupted ? <Typography.Text type="warning">{dialog.interrupted}</Typography.Text> : null}
          {phase === 'done' && dialog.problems.length > 0 ? (
            <>
              <p>{`${dialog.problems.length} 项未处理：`}</p>
              <ul aria-label="未处理的异常">
                {dialog.problems.slice(0, 8).map((problem, i) => (
                  <li key={i}>{problem}</li>
                ))}
                {dialog.problems.length > 8 ? <li>{`……另有 ${dialog.problems.length - 8} 项`}</li> : null}
              </ul>
            </>
          ) : null}
        </div>
      )}
    </Modal>
  );
}
