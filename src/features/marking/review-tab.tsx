/**
 * 异常处理: the homework's review queue. Each open item shows what went wrong (RECOGNITION_PROBLEM_LABELS),
 * the scanned page and the fixes that apply to it (指定学生, 修改填涂, 确认, 作废); a fix is sent as a
 * ReviewResolution and the server re-scores the page. Several items can be selected and confirmed or
 * discarded together (review-bulk.tsx). Resolved items are listed below with how.
 */
import {
  Button,
  Checkbox,
  CheckboxGroup,
  Empty,
  Image,
  InputNumber,
  Popconfirm,
  Spin,
  Tag,
  Toast,
  Typography,
} from '@douyinfe/semi-ui-19';
import { useRef, useState } from 'react';
import type { ReviewItem, ReviewResolution } from '../../shared/contract/marking';
import type { IdName } from '../../shared/contract/papers';
import { RECOGNITION_PROBLEM_LABELS } from '../../shared/contract/recognition';
import { IMAGE_ZOOM_MAX, IMAGE_ZOOM_MIN } from './image-zoom';
import { LabelledSelect } from '../../shared/ui/labelled-select';
import { fetchHomework, fetchReviewItems, fetchStudents, resolveReviewItem, scanPageImageUrl } from './marking-api';
import { useMarkingServices } from './marking-services';
import styles from './marking.module.css';
import {
  acceptHint,
  REVIEW_ACTION_HINTS,
  REVIEW_ACTION_LABELS,
  reviewActionsFor,
  toggleSelection,
  type ReviewAction,
} from './review-actions';
import { ReviewBulkBar } from './review-bulk';
import { useImageUrl } from './use-image-url';
import { useRemote } from '../../shared/ui/use-remote';
import { Illustration } from '../../shared/ui/illustration';

type Props = {
  homeworkId: number;
  /** Changes when the server reports new or fewer open items, so the lists load again. */
  version: string;
  onResolved: () => void;
};

export function ReviewTab({ homeworkId, version, onResolved }: Props) {
  const { http } = useMarkingServices();
  const [generation, setGeneration] = useState(0);
  const key = `${homeworkId}:${version}:${generation}`;
  const open = useRemote(`review-open:${key}`, () => fetchReviewItems(http, homeworkId, 'open'));
  const resolved = useRemote(`review-resolved:${key}`, () => fetchReviewItems(http, homeworkId, 'resolved'));
  const homework = useRemote(`homework:${homeworkId}`, () => fetchHomework(http, homeworkId));

  const [selected, setSelected] = useState<Set<number>>(new Set());
  const anchor = useRef<number | null>(null);

  const afterResolve = () => {
    setGeneration((g) => g + 1);
    onResolved();
  };

  const openItems = open.data ?? [];
  const order = openItems.map((item) => item.id);
  // Items resolved meanwhile (by another teacher, or one by one here) leave the selection.
  const selection = new Set(order.filter((id) => selected.has(id)));
  const select = (next: Set<number>) => {
    anchor.current = null;
    setSelected(next);
  };
  const toggle = (id: number, checked: boolean, range: boolean) => {
    setSelected(toggleSelection(order, selection, anchor.current, id, checked, range));
    anchor.current = id;
  };
  const resolvedItems = resolved.data ?? [];
  return (
    <>
      {/* Mounted while the list empties too: a bulk run's summary stays until the teacher closes it. */}
      <ReviewBulkBar items={openItems} selected={selection} onSelect={select} onDone={afterResolve} />
      {open.data === undefined ? (
        <Spin spinning={open.loading}>
          <div className={styles.empty} />
        </Spin>
      ) : openItems.length === 0 ? (
        <Empty
          className={styles.empty}
          image={<Illustration name="Success" style={{ width: 120, height: 120 }} />}
          title="没有待处理的异常"
          description="识别有疑问的答题卡会出现在这里，处理后才会计入成绩"
        />
      ) : (
        <>
          <ul className={styles.reviewList} aria-label="待处理异常">
            {openItems.map((item) => (
              <ReviewItemCard
                key={item.id}
                item={item}
                classes={homework.data?.classes ?? []}
                onResolved={afterResolve}
                selected={selection.has(item.id)}
                onToggle={(checked, range) => toggle(item.id, checked, range)}
              />
            ))}
          </ul>
        </>
      )}
      <Typography.Title heading={5} className={styles.sectionTitle}>
        {`已处理（${resolvedItems.length}）`}
      </Typography.Title>
      {resolvedItems.length === 0 ? (
        <p className={styles.sub}>暂无已处理的异常</p>
      ) : (
        <ul className={styles.pickerList} aria-label="已处理异常">
          {resolvedItems.map((item) => (
            <li key={item.id} className={styles.pickerItem}>
              <span>
                <Tag size="small">{RECOGNITION_PROBLEM_LABELS[item.kind]}</Tag> {describeItem(item)}
              </span>
              <Typography.Text type="success">{item.resolution ?? '已处理'}</Typography.Text>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** Where on the sheet and whose, as far as known. */
function describeItem(item: ReviewItem): string {
  const parts = [
    item.student ? `${item.student.name}（${item.student.code}）` : '学生未知',
    item.page ? `第 ${item.page} 页` : null,
    item.questionNo ? `第 ${item.questionNo} 题` : null,
  ];
  return parts.filter(Boolean).join(' · ');
}

type CardProps = {
  item: ReviewItem;
  classes: IdName[];
  onResolved: () => void;
  selected: boolean;
  /** `range`: shift-click, selects from the last clicked item to this one. */
  onToggle: (checked: boolean, range: boolean) => void;
};

function ReviewItemCard({ item, classes, onResolved, selected, onToggle }: CardProps) {
  const { http } = useMarkingServices();
  const shift = useRef(false);
  const image = useImageUrl(scanPageImageUrl(item.imageId));
  const [form, setForm] = useState<'assignStudent' | 'setAnswer' | null>(null);
  const [busy, setBusy] = useState<ReviewAction | null>(null);
  const actions = reviewActionsFor(item);
  const label = RECOGNITION_PROBLEM_LABELS[item.kind];

  const resolve = async (resolution: ReviewResolution) => {
    setBusy(resolution.action);
    try {
      await resolveReviewItem(http, item.id, resolution);
      Toast.success(`已${REVIEW_ACTION_LABELS[resolution.action]}`);
      onResolved();
    } catch {
      // Shown by the HTTP client; the item stays open for another try.
    } finally {
      setBusy(null);
    }
  };

  return (
    <li className={styles.reviewItem} aria-label={`异常：${label}`}>
      <div className={styles.reviewImage}>
        {image.url ? (
          <div>
            <Image
              src={image.url}
              alt={`${label}：${describeItem(item)} 的答题卡扫描图`}
              preview={{ minZoom: IMAGE_ZOOM_MIN, maxZoom: IMAGE_ZOOM_MAX }}
            />
            <div className={styles.imageHint}>点击图片查看大图</div>
          </div>
        ) : image.failed ? (
          <Button size="small" onClick={image.retry}>
            扫描图加载失败，重试
          </Button>
        ) : (
          <Spin />
        )}
      </div>
      <div className={styles.reviewBody}>
        <div>
          <span onClickCapture={(event) => (shift.current = event.shiftKey)}>
            <Checkbox
              className={styles.bulkCheck}
              aria-label={`选择：${label} ${describeItem(item)}`}
              checked={selected}
              onChange={(event) => {
                onToggle(Boolean(event.target.checked), shift.current);
                shift.current = false;
              }}
            />
          </span>
          <Tag color="orange">{label}</Tag> <span>{describeItem(item)}</span>
        </div>
        {item.reading ? (
          <div className={styles.fills} aria-label="填涂识别">
            {item.reading.fills.map((fill) => (
              <Tag key={fill.label} color={item.reading?.marked.includes(fill.label) ? 'blue' : 'white'}>
                {`${fill.label} ${Math.round(fill.fill * 100)}%`}
              </Tag>
            ))}
            <span className={styles.sub}>{`识别为：${item.reading.marked.join('') || '未填涂'}`}</span>
          </div>
        ) : null}
        <div className={styles.toolbar} role="group" aria-label="处理方式">
          {actions.map((action) => {
            const common = { loading: busy === action, disabled: busy !== null && busy !== action };
            if (action === 'assignStudent' || action === 'setAnswer')
              return (
                <Button
                  key={action}
                  {...common}
                  theme={form === action ? 'solid' : 'light'}
                  aria-expanded={form === action}
                  onClick={() => setForm(form === action ? null : action)}
                >
                  {REVIEW_ACTION_LABELS[action]}
                </Button>
              );
            if (action === 'discard')
              return (
                <Popconfirm
                  key={action}
                  title="作废这张答题卡？"
                  content={REVIEW_ACTION_HINTS.discard}
                  okText="作废"
                  cancelText="取消"
                  onConfirm={() => void resolve({ action: 'discard' })}
                >
                  <span>
                    <Button {...common} type="danger">
                      {REVIEW_ACTION_LABELS.discard}
                    </Button>
                  </span>
                </Popconfirm>
              );
            return (
              <Button key={action} {...common} type="primary" onClick={() => void resolve({ action: 'accept' })}>
                {REVIEW_ACTION_LABELS.accept}
              </Button>
            );
          })}
        </div>
        {actions.includes('accept') ? <span className={styles.sub}>{acceptHint(item.kind)}</span> : null}
        {form === 'assignStudent' ? (
          <AssignStudentForm item={item} classes={classes} busy={busy !== null} onSubmit={(r) => void resolve(r)} />
        ) : null}
        {form === 'setAnswer' && item.reading ? (
          <SetAnswerForm item={item} busy={busy !== null} onSubmit={(r) => void resolve(r)} />
        ) : null}
      </div>
    </li>
  );
}

type FormProps = { item: ReviewItem; busy: boolean; onSubmit: (resolution: ReviewResolution) => void };

function AssignStudentForm({ item, classes, busy, onSubmit }: FormProps & { classes: IdName[] }) {
  const { http } = useMarkingServices();
  const [chosenClassId, setClassId] = useState<number | undefined>();
  const classId = chosenClassId ?? classes[0]?.id;
  const [studentId, setStudentId] = useState<number | undefined>(item.student?.id);
  const [page, setPage] = useState<number | undefined>(item.page ?? undefined);
  const students = useRemote(classId ? `students:${classId}` : null, () => fetchStudents(http, classId ?? 0));

  return (
    <div className={styles.reviewFix}>
      <LabelledSelect
        label="班级"
        placeholder="选择班级"
        value={classId}
        optionList={classes.map((c) => ({ value: c.id, label: c.name }))}
        onChange={(value) => {
          setClassId(Number(value));
          setStudentId(undefined);
        }}
        style={{ width: 150 }}
      />
      <LabelledSelect
        label="学生"
        placeholder="选择学生"
        filter
        loading={students.loading}
        emptyContent="该班级暂无学生"
        value={studentId}
        optionList={(students.data ?? []).map((s) => ({ value: s.id, label: `${s.name}（${s.code}）` }))}
        onChange={(value) => setStudentId(Number(value))}
        style={{ width: 200 }}
      />
      {item.page === null ? (
        <InputNumber
          aria-label="页码"
          prefix="第"
          suffix="页"
          min={1}
          max={8}
          precision={0}
          value={page}
          onNumberChange={(value) => setPage(Number.isInteger(value) && value > 0 ? value : undefined)}
          style={{ width: 120 }}
        />
      ) : null}
      <Button
        theme="solid"
        disabled={!studentId || busy}
        onClick={() => studentId && onSubmit({ action: 'assignStudent', studentId, ...(page ? { page } : {}) })}
      >
        确定指定
      </Button>
    </div>
  );
}

function SetAnswerForm({ item, busy, onSubmit }: FormProps) {
  const reading = item.reading;
  const [labels, setLabels] = useState<string[]>(reading?.marked ?? []);
  if (!reading) return null;
  const questionNo = item.questionNo ?? reading.questionNo;
  return (
    <div className={styles.reviewFix}>
      <span>{`第 ${questionNo} 题学生的填涂：`}</span>
      <CheckboxGroup
        direction="horizontal"
        aria-label={`第${questionNo}题填涂`}
        value={labels}
        onChange={(value) => setLabels(value as string[])}
      >
        {reading.fills.map((fill) => (
          <Checkbox key={fill.label} value={fill.label}>
            {fill.label}
          </Checkbox>
        ))}
      </CheckboxGroup>
      <Button
        theme="solid"
        disabled={busy}
        onClick={() =>
          onSubmit({
            action: 'setAnswer',
            questionNo,
            // Template order, whatever order they were ticked in.
            labels: reading.fills.map((f) => f.label).filter((l) => labels.includes(l)),
          })
        }
      >
        保存填涂
      </Button>
      {labels.length === 0 ? <span className={styles.sub}>不勾选表示未作答</span> : null}
    </div>
  );
}
