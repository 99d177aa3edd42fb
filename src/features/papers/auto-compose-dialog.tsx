/**
 * 智能组卷: rules of how many questions of which type, at which difficulty and score, from which
 * chapters; the server picks them and the draft replaces the basket. Without chapters the questions
 * come from the textbooks of the school year's grade (初一: 七年级上册、下册) unless the teacher asks for
 * the whole subject; the dialog says which.
 */
import { IconDelete, IconPlus } from '@douyinfe/semi-icons';
import { Button, Checkbox, InputNumber, Modal, Toast, TreeSelect, Typography } from '@douyinfe/semi-ui-19';
import { useState } from 'react';
import {
  DIFFICULTIES,
  DIFFICULTY_LABELS,
  gradeTextbookPrefix,
  QUESTION_TYPE_LABELS,
  QUESTION_TYPES,
  type AutoComposeRule,
  type PaperDraft,
  type QuestionType,
  type TreeNode,
  schoolYearGrade,
} from '../../shared/contract/papers';
import { DEFAULT_SCORES } from './basket.store';
import styles from './compose.module.css';
import { autoComposePaper } from './papers-api';
import { usePapersServices } from './papers-services';
import { toTreeData } from './tree-data';
import { LabelledSelect } from '../../shared/ui/labelled-select';

type RuleRow = { key: number; type: QuestionType; difficulty: number | undefined; count: number; score: number };

const DEFAULT_RULES: Omit<RuleRow, 'key'>[] = [
  { type: 'single', difficulty: undefined, count: 5, score: DEFAULT_SCORES.single },
  { type: 'blank', difficulty: undefined, count: 3, score: DEFAULT_SCORES.blank },
  { type: 'subjective', difficulty: undefined, count: 2, score: DEFAULT_SCORES.subjective },
];

let ruleKey = 0;
const withKey = (rule: Omit<RuleRow, 'key'>): RuleRow => ({ ...rule, key: ++ruleKey });

export function AutoComposeDialog({
  visible,
  subjectId,
  schoolYearId,
  schoolYearName,
  chapters,
  onClose,
  onComposed,
}: {
  visible: boolean;
  subjectId: number;
  schoolYearId: number;
  schoolYearName: string;
  chapters: TreeNode[];
  onClose: () => void;
  onComposed: (draft: PaperDraft) => void;
}) {
  const { http } = usePapersServices();
  const [rules, setRules] = useState<RuleRow[]>(() => DEFAULT_RULES.map(withKey));
  const [chapterIds, setChapterIds] = useState<number[]>([]);
  const [wholeSubject, setWholeSubject] = useState(false);
  const [busy, setBusy] = useState(false);
  const grade = schoolYearGrade(schoolYearName, new Date());
  const books = grade === null ? [] : chapters.filter((c) => c.name.startsWith(gradeTextbookPrefix(grade)));
  const gradeRange = books.length > 0 ? books.map((b) => b.name).join('、') : null;
  const rangeText =
    chapterIds.length > 0
      ? '从所选章节抽题'
      : wholeSubject || !gradeRange
        ? '从整个学科的题库抽题'
        : `按当前学年（${schoolYearName}）从${gradeRange}抽题`;

  const update = (key: number, patch: Partial<RuleRow>) =>
    setRules((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const total = rules.reduce((sum, r) => sum + r.count * r.score, 0);

  const compose = async () => {
    setBusy(true);
    try {
      const draft = await autoComposePaper(http, {
        subjectId,
        schoolYearId,
        chapterIds: chapterIds.length > 0 ? chapterIds : undefined,
        range: wholeSubject ? 'subject' : 'schoolYear',
        rules: rules.map((r): AutoComposeRule => ({
          type: r.type,
          ...(r.difficulty ? { difficulty: r.difficulty } : {}),
          count: r.count,
          score: r.score,
        })),
      });
      onComposed(draft);
      if (draft.drawnFrom) Toast.info(`已从${draft.drawnFrom}抽取 ${draft.questionCount} 道题`);
    } catch {
      // The client has shown the server's message (e.g. which rule the bank cannot fill).
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title="智能组卷"
      visible={visible}
      onCancel={onClose}
      width={760}
      okText="开始组卷"
      cancelText="取消"
      onOk={compose}
      okButtonProps={{ loading: busy, disabled: rules.length === 0 }}
    >
      <Typography.Text type="tertiary">按规则从题库中随机抽题，生成的试卷会替换当前试题篮。</Typography.Text>
      <div className={styles.ruleChapters}>
        <TreeSelect
          aria-label="出题章节"
          placeholder={gradeRange ? `出题章节（不选则为${gradeRange}）` : '出题章节（不选则为整个学科）'}
          multiple
          leafOnly={false}
          treeData={toTreeData(chapters)}
          value={chapterIds}
          onChange={(value) => setChapterIds((value as number[] | undefined) ?? [])}
          style={{ width: '100%' }}
          maxTagCount={4}
        />
        <div className={styles.ruleRange}>
          <Typography.Text strong data-testid="compose-range">
            {rangeText}
          </Typography.Text>
          {gradeRange && chapterIds.length === 0 ? (
            <Checkbox checked={wholeSubject} onChange={(event) => setWholeSubject(Boolean(event.target.checked))}>
              不限年级（整个学科）
            </Checkbox>
          ) : null}
        </div>
      </div>
      <table className={styles.ruleTable}>
        <thead>
          <tr>
            <th scope="col">题型</th>
            <th scope="col">难度</th>
            <th scope="col">题数</th>
            <th scope="col">每题分值</th>
            <th scope="col" aria-label="操作" />
          </tr>
        </thead>
        <tbody>
          {rules.map((rule, i) => (
            <tr key={rule.key}>
              <td>
                <LabelledSelect
                  label={`规则 ${i + 1} 题型`}
                  value={rule.type}
                  style={{ width: 120 }}
                  optionList={QUESTION_TYPES.map((t) => ({ value: t, label: QUESTION_TYPE_LABELS[t] }))}
                  onChange={(value) =>
                    update(rule.key, { type: value as QuestionType, score: DEFAULT_SCORES[value as QuestionType] })
                  }
                />
              </td>
              <td>
                <LabelledSelect
                  label={`规则 ${i + 1} 难度`}
                  value={rule.difficulty ?? 0}
                  style={{ width: 110 }}
                  optionList={[
                    { value: 0, label: '不限' },
                    ...DIFFICULTIES.map((d) => ({ value: d, label: DIFFICULTY_LABELS[d] })),
                  ]}
                  onChange={(value) => update(rule.key, { difficulty: Number(value) || undefined })}
                />
              </td>
              <td>
                <InputNumber
                  aria-label={`规则 ${i + 1} 题数`}
                  min={1}
                  max={50}
                  precision={0}
                  value={rule.count}
                  style={{ width: 90 }}
                  onNumberChange={(value) => Number.isInteger(value) && value >= 1 && update(rule.key, { count: value })}
                />
              </td>
              <td>
                <InputNumber
                  aria-label={`规则 ${i + 1} 每题分值`}
                  min={0.5}
                  max={100}
                  step={0.5}
                  value={rule.score}
                  style={{ width: 100 }}
                  onNumberChange={(value) => value > 0 && value <= 100 && update(rule.key, { score: value })}
                />
              </td>
              <td>
                <Button
                  theme="borderless"
                  type="danger"
                  icon={<IconDelete />}
                  aria-label={`删除规则 ${i + 1}`}
                  onClick={() => setRules((rs) => rs.filter((r) => r.key !== rule.key))}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className={styles.ruleFooter}>
        <Button
          icon={<IconPlus />}
          disabled={rules.length >= 10}
          onClick={() =>
            setRules((rs) => [...rs, withKey({ type: 'single', difficulty: undefined, count: 5, score: DEFAULT_SCORES.single })])
          }
        >
          添加规则
        </Button>
        <span>{`共 ${rules.reduce((n, r) => n + r.count, 0)} 题，总分 ${Math.round(total * 10) / 10} 分`}</span>
      </div>
    </Modal>
  );
}
