/**
 * 新建本校题 / 编辑本校题: a question the school writes itself, with its type, stem, options and answer,
 * analysis, subject, chapters, knowledge points and difficulty. Saved, it is in the question bank tagged
 * 本校题. The text is typed as plain text (formulas between $…$ as everywhere in the bank, a blank as six
 * or more underscores) and stored as the bank's rich text; 题干, each option and 解析 may carry pictures
 * (question-pictures.tsx), stored by our server for the school and kept when the question is edited
 * again. The contract's own checks run before sending, the server checks again.
 */
import { Banner, Button, Checkbox, CheckboxGroup, Input, Radio, RadioGroup, TextArea, Toast } from '@douyinfe/semi-ui-19';
import { useRef, useState } from 'react';
import {
  DIFFICULTIES,
  DIFFICULTY_LABELS,
  JUDGE_ANSWERS,
  MAX_CHOICE_OPTIONS,
  MIN_CHOICE_OPTIONS,
  QUESTION_TYPE_LABELS,
  QUESTION_TYPES,
  type Question,
  type QuestionType,
  questionInputSchema,
} from '../../shared/contract/papers';
import { isQuestionImage } from '../../shared/ui/question-images';
import { plainText } from '../../shared/ui/rich-text';
import { useRemote } from '../../shared/ui/use-remote';
import { LabelledSelect } from '../../shared/ui/labelled-select';
import {
  createQuestion,
  deleteQuestionImage,
  fetchChapters,
  fetchKnowledgePoints,
  fetchSubjects,
  updateQuestion,
} from './papers-api';
import { usePapersServices } from './papers-services';
import { picturesOf, QuestionPictures, withPictures } from './question-pictures';
import { SaveModal, type TargetFormProps, targetDialog } from './target-dialog';
import { toPathOptions } from './tree-data';

const LETTERS = 'ABCDEFGH';
const BLANK = /_{6,}/g;

/** Plain text as the bank's rich text: HTML special characters escaped, line breaks as <br>. */
export function toRichText(text: string): string {
  return text.trim().replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r?\n/g, '<br>');
}

/**
 * Tables, and pictures in an answer, do not survive the plain-text editor (pictures of 题干, options and
 * 解析 do); the teacher is told before saving.
 */
const hasLostParts = (question: Question) =>
  [question.stem, question.analysis, ...question.options].some((part) => /<table\b/i.test(part)) ||
  question.answer.some((part) => /<(img|table)\b/i.test(part));

/** What the dialog works on: a new question (of a subject, if one is chosen) or one to change. */
export type QuestionEditorTarget = { kind: 'create'; subjectId?: number } | { kind: 'edit'; question: Question };

function QuestionEditorForm({ target, onClose, onSaved }: TargetFormProps<QuestionEditorTarget, Question>) {
  const { http } = usePapersServices();
  const editing = target.kind === 'edit' ? target.question : null;
  const [subjectId, setSubjectId] = useState<number | undefined>(
    editing ? editing.subjectId : target.kind === 'create' ? target.subjectId : undefined,
  );
  const [type, setType] = useState<QuestionType>(editing?.type ?? 'single');
  const [stem, setStem] = useState(editing ? plainText(editing.stem) : '');
  const [stemPictures, setStemPictures] = useState<string[]>(editing ? picturesOf(editing.stem) : []);
  const [options, setOptions] = useState<string[]>(
    editing && editing.options.length > 0 ? editing.options.map(plainText) : ['', '', '', ''],
  );
  const [optionPictures, setOptionPictures] = useState<string[][]>(
    editing && editing.options.length > 0 ? editing.options.map(picturesOf) : [[], [], [], []],
  );
  const [answer, setAnswer] = useState<string[]>(editing ? editing.answer.map(plainText) : []);
  const [analysis, setAnalysis] = useState(editing ? plainText(editing.analysis) : '');
  const [analysisPictures, setAnalysisPictures] = useState<string[]>(editing ? picturesOf(editing.analysis) : []);
  // Pictures stored from this dialog, and those the question had: once it is saved (or the dialog is
  // cancelled, for the new ones), those it does not keep are removed (the server keeps any in use).
  const uploaded = useRef<string[]>([]);
  const onUploaded = (src: string) => uploaded.current.push(src);
  const discardUnused = (kept: readonly string[], candidates: readonly string[]) => {
    for (const src of new Set(candidates)) {
      if (isQuestionImage(src) && !kept.includes(src)) void deleteQuestionImage(http, src).catch(() => undefined);
    }
    uploaded.current = [];
  };

  const [difficulty, setDifficulty] = useState<number>(editing?.difficulty ?? 3);
  const [chapterIds, setChapterIds] = useState<number[]>(editing?.chapterIds ?? []);
  const [pointIds, setPointIds] = useState<number[]>(editing?.knowledgePointIds ?? []);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const subjects = useRemote('subjects', () => fetchSubjects(http));
  const chapters = useRemote(subjectId ? `chapters:${subjectId}` : null, () => fetchChapters(http, subjectId!));
  const points = useRemote(subjectId ? `knowledge-points:${subjectId}` : null, () => fetchKnowledgePoints(http, subjectId!));

  const choice = type === 'single' || type === 'multiple';
  const letters = LETTERS.slice(0, options.length).split('');
  const blanks = stem.match(BLANK)?.length ?? 0;

  const changeType = (next: QuestionType) => {
    setType(next);
    setAnswer([]);
  };

  const changeSubject = (next: number | undefined) => {
    setSubjectId(next);
    setChapterIds([]);
    setPointIds([]);
  };

  const removeOption = (index: number) => {
    setOptions((current) => current.filter((_, i) => i !== index));
    setOptionPictures((current) => current.filter((_, i) => i !== index));
    // Answers name options by letter: drop the removed one's and those after it.
    setAnswer((current) => current.filter((letter) => LETTERS.indexOf(letter) < index));
  };

  /** The answer as the contract wants it for the type (blank: one per blank of the stem). */
  const answerOf = (): string[] => {
    if (type === 'blank') return Array.from({ length: blanks }, (_, i) => toRichText(answer[i] ?? ''));
    if (type === 'subjective') return [toRichText(answer[0] ?? '')];
    if (type === 'multiple') return [...answer].sort();
    return answer.slice(0, 1);
  };

  const save = async () => {
    if (!subjectId) return setError('请选择学科');
    const parsed = questionInputSchema.safeParse({
      subjectId,
      type,
      stem: withPictures(toRichText(stem), stemPictures),
      options: choice
        ? options.map((option, i) => withPictures(toRichText(option), optionPictures[i] ?? [], /* inline */ true))
        : [],
      answer: answerOf(),
      analysis: withPictures(toRichText(analysis), analysisPictures),
      difficulty,
      chapterIds,
      knowledgePointIds: pointIds,
      source: editing?.source ?? '',
    });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? '请检查题目内容');
    setError('');
    setBusy(true);
    try {
      const saved = editing ? await updateQuestion(http, editing.id, parsed.data) : await createQuestion(http, parsed.data);
      const had = editing ? [editing.stem, editing.analysis, ...editing.options].flatMap(picturesOf) : [];
      discardUnused([saved.stem, saved.analysis, ...saved.options].flatMap(picturesOf), [...uploaded.current, ...had]);
      Toast.success(editing ? '本校题已保存' : '本校题已保存，组卷选题时可在题库中找到它');
      onSaved(saved);
    } catch {
      // Shown by the client; the fields stay for another try.
    } finally {
      setBusy(false);
    }
  };

  const full = { width: '100%' };
  return (
    <SaveModal
      title={editing ? '编辑本校题' : '新建本校题'}
      width="min(94vw, 640px)"
      busy={busy}
      onClose={() => {
        discardUnused([], uploaded.current);
        onClose();
      }}
      onSave={() => void save()}
      bodyStyle={{ maxHeight: '70vh', overflowY: 'auto' }}
    >
      {editing && hasLostParts(editing) ? (
        <Banner
          type="warning"
          description="此题含表格或答案中的图片，这里只能按文字编辑，保存后它们会丢失（题干、选项和解析中的图片会保留）。"
          closeIcon={null}
          style={{ marginBottom: 12 }}
        />
      ) : null}
      {error ? <Banner type="danger" description={error} closeIcon={null} style={{ marginBottom: 12 }} /> : null}
      <div style={{ display: 'grid', gap: 12 }}>
        <LabelledSelect
          label="学科"
          placeholder="选择学科"
          value={subjectId}
          loading={subjects.loading}
          optionList={(subjects.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
          onChange={(next) => changeSubject(next ? Number(next) : undefined)}
          style={full}
        />
        <RadioGroup
          type="button"
          aria-label="题型"
          value={type}
          onChange={(event) => changeType(event.target.value as QuestionType)}
        >
          {QUESTION_TYPES.map((t) => (
            <Radio key={t} value={t}>
              {QUESTION_TYPE_LABELS[t]}
            </Radio>
          ))}
        </RadioGroup>
        <TextArea
          aria-label="题干"
          placeholder={
            type === 'blank' ? '题干；每个空写六个或以上下划线 ______，公式写在 $ 之间' : '题干；公式写在 $ 之间，如 $x^2$'
          }
          value={stem}
          maxLength={20_000}
          autosize={{ minRows: 3, maxRows: 8 }}
          onChange={setStem}
        />
        <QuestionPictures label="题干" pictures={stemPictures} onChange={setStemPictures} onUploaded={onUploaded} />
        {choice ? (
          <div style={{ display: 'grid', gap: 8 }} role="group" aria-label="选项">
            {options.map((option, i) => (
              <div key={i} style={{ display: 'grid', gap: 4 }}>
                <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
                  <strong style={{ width: 16 }}>{LETTERS[i]}</strong>
                  <Input
                    aria-label={`选项 ${LETTERS[i]}`}
                    value={option}
                    maxLength={5_000}
                    onChange={(value) => setOptions((current) => current.map((o, j) => (j === i ? value : o)))}
                  />
                  <Button
                    theme="borderless"
                    type="danger"
                    aria-label={`删除选项 ${LETTERS[i]}`}
                    disabled={options.length <= MIN_CHOICE_OPTIONS}
                    onClick={() => removeOption(i)}
                  >
                    删除
                  </Button>
                </div>
                <div style={{ paddingLeft: 24 }}>
                  <QuestionPictures
                    label={`选项 ${LETTERS[i]}`}
                    pictures={optionPictures[i] ?? []}
                    onChange={(next) =>
                      setOptionPictures((current) => options.map((_, j) => (j === i ? next : (current[j] ?? []))))
                    }
                    onUploaded={onUploaded}
                  />
                </div>
              </div>
            ))}
            {options.length < MAX_CHOICE_OPTIONS ? (
              <Button
                style={{ justifySelf: 'start' }}
                onClick={() => {
                  setOptions((current) => [...current, '']);
                  setOptionPictures((current) => [...current, []]);
                }}
              >
                添加选项
              </Button>
            ) : null}
          </div>
        ) : null}
        <div role="group" aria-label="答案" style={{ display: 'grid', gap: 8 }}>
          <strong>答案</strong>
          {type === 'single' ? (
            <RadioGroup value={answer[0]} onChange={(event) => setAnswer([String(event.target.value)])}>
              {letters.map((letter) => (
                <Radio key={letter} value={letter}>
                  {letter}
                </Radio>
              ))}
            </RadioGroup>
          ) : null}
          {type === 'multiple' ? (
            <CheckboxGroup direction="horizontal" value={answer} onChange={(value) => setAnswer((value as string[]).sort())}>
              {letters.map((letter) => (
                <Checkbox key={letter} value={letter}>
                  {letter}
                </Checkbox>
              ))}
            </CheckboxGroup>
          ) : null}
          {type === 'judge' ? (
            <RadioGroup value={answer[0]} onChange={(event) => setAnswer([String(event.target.value)])}>
              {JUDGE_ANSWERS.map((word) => (
                <Radio key={word} value={word}>
                  {word}
                </Radio>
              ))}
            </RadioGroup>
          ) : null}
          {type === 'blank' ? (
            blanks === 0 ? (
              <span style={{ color: 'var(--semi-color-text-2)' }}>
                在题干中写下划线 ______ 作为空，这里就会出现每个空的答案框
              </span>
            ) : (
              Array.from({ length: blanks }, (_, i) => (
                <Input
                  key={i}
                  aria-label={`第 ${i + 1} 空答案`}
                  prefix={`第 ${i + 1} 空`}
                  value={answer[i] ?? ''}
                  maxLength={5_000}
                  onChange={(value) =>
                    setAnswer((current) => Array.from({ length: blanks }, (_, j) => (j === i ? value : (current[j] ?? ''))))
                  }
                />
              ))
            )
          ) : null}
          {type === 'subjective' ? (
            <TextArea
              aria-label="参考答案"
              placeholder="参考答案"
              value={answer[0] ?? ''}
              maxLength={5_000}
              autosize={{ minRows: 2, maxRows: 6 }}
              onChange={(value) => setAnswer([value])}
            />
          ) : null}
        </div>
        <TextArea
          aria-label="解析"
          placeholder="解析（可不填）"
          value={analysis}
          maxLength={20_000}
          autosize={{ minRows: 2, maxRows: 6 }}
          onChange={setAnalysis}
        />
        <QuestionPictures label="解析" pictures={analysisPictures} onChange={setAnalysisPictures} onUploaded={onUploaded} />
        <LabelledSelect
          label="章节"
          placeholder={subjectId ? '章节（可多选，可不选）' : '先选学科再选章节'}
          disabled={!subjectId}
          multiple
          filter
          maxTagCount={3}
          optionList={toPathOptions(chapters.data ?? [])}
          value={chapterIds}
          onChange={(next) => setChapterIds((next as number[] | undefined) ?? [])}
          style={full}
        />
        <LabelledSelect
          label="知识点"
          placeholder={subjectId ? '知识点（可多选，可不选）' : '先选学科再选知识点'}
          disabled={!subjectId}
          multiple
          filter
          maxTagCount={3}
          optionList={toPathOptions(points.data ?? [])}
          value={pointIds}
          onChange={(next) => setPointIds((next as number[] | undefined) ?? [])}
          style={full}
        />
        <LabelledSelect
          label="难度"
          value={difficulty}
          optionList={DIFFICULTIES.map((d) => ({ value: d, label: `难度：${DIFFICULTY_LABELS[d]}` }))}
          onChange={(next) => setDifficulty(Number(next))}
          style={full}
        />
      </div>
    </SaveModal>
  );
}

/** Nothing for null; the form afresh for each target. */
export const QuestionEditorDialog = targetDialog(QuestionEditorForm, (target) =>
  target.kind === 'edit' ? `edit:${target.question.id}` : 'create',
);
