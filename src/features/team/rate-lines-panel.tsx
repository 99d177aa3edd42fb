/**
 * 各学年学科分数线 on /team/details: a school year and subject's own 优秀 / 良好 / 及格 / 低分 lines,
 * overriding the school's (analysis-definitions.md: each school sets its lines per school year and
 * subject). Every member reads them; the creator and admins edit every school year's, a grade director
 * their own school year's (the server decides; `editableSchoolYearIds` says which).
 */
import { Banner, Button, InputNumber, Popconfirm, Select, Spin, Table, Toast, Typography } from '@douyinfe/semi-ui-19';
import { useEffect, useState } from 'react';
import type { HttpClient } from '../../shared/adapters/http-client';
import type { SchoolStructure } from '../../shared/contract/org';
import { rateLinesListSchema, rateLinesSchema, type RateLinesInput, type RateLinesList } from '../../shared/contract/rate-lines';
import styles from './team.module.css';

type Item = RateLinesList['items'][number];

const url = (orgId: number, schoolYearId?: number, subjectId?: number) =>
  `/api/org/schools/${orgId}/rate-lines${schoolYearId ? `/${schoolYearId}/${subjectId}` : ''}`;
const fetchRateLines = (http: HttpClient, orgId: number) => http.get(url(orgId), undefined, rateLinesListSchema);
const saveRateLines = (http: HttpClient, orgId: number, schoolYearId: number, subjectId: number, input: RateLinesInput) =>
  http.putJson(url(orgId, schoolYearId, subjectId), input, rateLinesListSchema);
const removeRateLines = (http: HttpClient, orgId: number, schoolYearId: number, subjectId: number) =>
  http.deleteQuery(url(orgId, schoolYearId, subjectId), undefined, rateLinesListSchema);
type Draft = {
  schoolYearId: number | undefined;
  subjectId: number | undefined;
  excellentPercent: number | undefined;
  goodPercent: number | undefined;
  passPercent: number | undefined;
  lowPercent: number | undefined;
  /** Editing an existing override: the school year and subject stay. */
  existing: boolean;
  /** A new key per opening: the pickers are uncontrolled (a controlled Semi Select starting empty ignored picks in jsdom). */
  key: number;
};

const LINE_FIELDS = [
  ['excellentPercent', '优秀', '≥'],
  ['goodPercent', '良好', '≥'],
  ['passPercent', '及格', '≥'],
  ['lowPercent', '低分', '<'],
] as const;

const linesLabel = (lines: RateLinesList['defaults']) =>
  LINE_FIELDS.map(([field, label, sign]) => `${label} ${sign}${lines[field]}%`).join(' · ');

/** Loaded lazily by the 学校设置 page (its Table and InputNumber stay out of the page's first view). */
export function RateLinesPanel({ http, orgId, structure }: { http: HttpClient; orgId: number; structure: SchoolStructure }) {
  const [list, setList] = useState<RateLinesList | null>(null);
  const [failed, setFailed] = useState(false);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Read again when the page's structure changes: the list names school years and subjects, and 升年级
  // or a rename changes those names.
  useEffect(() => {
    let alive = true;
    fetchRateLines(http, orgId)
      .then((answer) => alive && setList(answer))
      .catch(() => alive && setFailed(true));
    return () => {
      alive = false;
    };
  }, [http, orgId, structure]);

  if (failed && !list) return <Banner type="danger" closeIcon={null} description="分数线加载失败，请刷新重试" />;
  if (!list) return <Spin />;

  const editable = new Set(list.editableSchoolYearIds);
  const years = structure.schoolYears.filter((y) => !y.archived && editable.has(y.id));
  const subjects = structure.subjects.filter((s) => !s.archived);

  const open = (item?: Item) => {
    setError(null);
    setDraft(
      item
        ? { ...item, existing: true, key: Date.now() }
        : { ...list.defaults, schoolYearId: years[0]?.id, subjectId: undefined, existing: false, key: Date.now() },
    );
  };

  const save = async () => {
    if (!draft) return;
    if (!draft.schoolYearId || !draft.subjectId) return setError('请选择学年和学科');
    const parsed = rateLinesSchema.safeParse(draft);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? '分数线有误');
    setBusy(true);
    try {
      setList(await saveRateLines(http, orgId, draft.schoolYearId, draft.subjectId, parsed.data));
      setDraft(null);
      Toast.success('分数线已保存');
    } catch {
      // The HTTP client has shown the server's message.
    } finally {
      setBusy(false);
    }
  };

  const remove = async (item: Item) => {
    try {
      setList(await removeRateLines(http, orgId, item.schoolYearId, item.subjectId));
      Toast.success('已删除，该学年学科按学校分数线统计');
    } catch {
      // Shown by the HTTP client.
    }
  };

  return (
    <section aria-label="各学年学科分数线" className={styles.section}>
      <div className={styles.header}>
        <Typography.Title heading={6}>各学年学科分数线</Typography.Title>
        {years.length > 0 ? (
          <Button onClick={() => open()} disabled={subjects.length === 0}>
            添加分数线
          </Button>
        ) : null}
      </div>
      <Typography.Paragraph type="tertiary">
        学情分析按作业所属学年和学科的分数线统计优秀率、良好率、及格率和低分率（占满分的百分比）；未单独设置的按学校分数线：
        <Typography.Text strong data-testid="default-lines">
          {linesLabel(list.defaults)}
        </Typography.Text>
      </Typography.Paragraph>
      {/* Full width on a desktop; a phone scrolls the table sideways. */}
      <div className={styles.linesTable}>
        <Table
          size="small"
          pagination={false}
          rowKey={(item?: Item) => (item ? `${item.schoolYearId}:${item.subjectId}` : '')}
          dataSource={list.items}
          empty="还没有单独设置的学年学科，全部按学校分数线"
          columns={[
            { title: '学年', dataIndex: 'schoolYearName' },
            { title: '学科', dataIndex: 'subjectName' },
            ...LINE_FIELDS.map(([field, label, sign]) => ({
              title: label,
              dataIndex: field,
              render: (value: number) => `${sign}${value}%`,
            })),
            {
              title: '操作',
              render: (_: unknown, item: Item) =>
                editable.has(item.schoolYearId) ? (
                  <span className={styles.row}>
                    <Button size="small" theme="borderless" onClick={() => open(item)}>
                      编辑
                    </Button>
                    <Popconfirm
                      title={`删除 ${item.schoolYearName} ${item.subjectName} 的分数线？`}
                      content="删除后按学校分数线统计"
                      okText="删除"
                      cancelText="取消"
                      onConfirm={() => void remove(item)}
                    >
                      <span>
                        <Button size="small" theme="borderless" type="danger">
                          删除
                        </Button>
                      </span>
                    </Popconfirm>
                  </span>
                ) : (
                  <Typography.Text type="tertiary">—</Typography.Text>
                ),
            },
          ]}
        />
      </div>
      {draft ? (
        <div
          className={styles.year}
          role="group"
          aria-label={draft.existing ? '编辑分数线' : '添加分数线'}
          style={{ marginTop: 12 }}
        >
          <Typography.Title heading={6}>{draft.existing ? '编辑分数线' : '添加分数线'}</Typography.Title>
          <div className={styles.linesForm} key={draft.key}>
            <div>
              <span id="rate-lines-year">学年</span>
              <Select
                aria-labelledby="rate-lines-year"
                defaultValue={draft.schoolYearId}
                disabled={draft.existing}
                optionList={
                  draft.existing
                    ? structure.schoolYears.map((y) => ({ value: y.id, label: y.name }))
                    : years.map((y) => ({ value: y.id, label: y.name }))
                }
                onChange={(value) => setDraft((d) => d && { ...d, schoolYearId: value as number })}
                style={{ width: '100%' }}
              />
            </div>
            <div>
              <span id="rate-lines-subject">学科</span>
              <Select
                aria-labelledby="rate-lines-subject"
                placeholder="请选择学科"
                defaultValue={draft.subjectId}
                disabled={draft.existing}
                optionList={(draft.existing ? structure.subjects : subjects).map((s) => ({ value: s.id, label: s.name }))}
                onChange={(value) => setDraft((d) => d && { ...d, subjectId: value as number })}
                style={{ width: '100%' }}
              />
            </div>
            {LINE_FIELDS.map(([field, label, sign]) => (
              <label key={field}>
                <span>
                  {label}（{sign} 满分的 %）
                </span>
                <InputNumber
                  aria-label={label}
                  value={draft[field]}
                  min={0}
                  max={100}
                  suffix="%"
                  onNumberChange={(value) => setDraft((d) => d && { ...d, [field]: Number.isFinite(value) ? value : undefined })}
                />
              </label>
            ))}
          </div>
          {error ? (
            <Typography.Paragraph type="danger" role="alert">
              {error}
            </Typography.Paragraph>
          ) : null}
          <div className={styles.row} style={{ marginTop: 12 }}>
            <Button theme="solid" loading={busy} onClick={() => void save()}>
              保存
            </Button>
            <Button onClick={() => setDraft(null)}>取消</Button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
