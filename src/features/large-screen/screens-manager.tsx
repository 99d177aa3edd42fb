/**
 * 大屏管理 (portal, admins and grade directors): pair a wall screen by typing the code it shows, choose
 * what it shows (the whole school, a school year or a class; which panels; student names only where the
 * school year allows it), and list, rename, re-scope and revoke the school's screens. A revoked screen
 * is disconnected at once and shows a new pairing code.
 */
import {
  Button,
  Checkbox,
  CheckboxGroup,
  Input,
  Radio,
  RadioGroup,
  Select,
  SideSheet,
  Switch,
  Table,
  Tag,
  Toast,
} from '@douyinfe/semi-ui-19';
import { useCallback, useEffect, useState } from 'react';
import { ApiRequestError, type HttpClient } from '../../shared/adapters/http-client';
import {
  PANEL_LABELS,
  SCOPE_KIND_LABELS,
  SCREEN_PANELS,
  screenListSchema,
  screenOptionsSchema,
  screenSchema,
  type ScopeKind,
  type Screen,
  type ScreenOptions,
  type ScreenPanel,
  type ScreenUpdate,
} from '../../shared/contract/large-screen';
import { clockText } from './panel-data';

type Draft = {
  code: string;
  name: string;
  scopeKind: ScopeKind;
  schoolYearId: number | null;
  classId: number | null;
  panels: ScreenPanel[];
  showNames: boolean;
};

/** 大屏管理's first load is asked this many times, `LOAD_RETRY_MS` times the try apart, before the button stays away. */
export const LOAD_TRIES = 5;
export const LOAD_RETRY_MS = 2000;

const EMPTY: Draft = {
  code: '',
  name: '',
  scopeKind: 'schoolYear',
  schoolYearId: null,
  classId: null,
  panels: [...SCREEN_PANELS],
  showNames: false,
};

function ScreenForm({
  options,
  draft,
  onChange,
  withCode,
}: {
  options: ScreenOptions;
  draft: Draft;
  onChange: (draft: Draft) => void;
  withCode: boolean;
}) {
  const year =
    options.schoolYears.find((y) => y.id === draft.schoolYearId) ??
    options.schoolYears.find((y) => y.classes.some((c) => c.id === draft.classId));
  const namesAllowed = draft.scopeKind !== 'school' && Boolean(year?.namesAllowed);
  const set = (patch: Partial<Draft>) => onChange({ ...draft, ...patch });
  return (
    <div style={{ display: 'grid', gap: 12 }}>
      {withCode ? (
        <label>
          配对码（大屏上显示的 6 位数字）
          <Input
            value={draft.code}
            maxLength={6}
            placeholder="例如 123456"
            onChange={(code) => set({ code: code.replace(/\D/g, '') })}
            aria-label="配对码"
          />
        </label>
      ) : null}
      <label>
        大屏名称
        <Input
          value={draft.name}
          maxLength={30}
          placeholder="例如 教学楼一层走廊"
          onChange={(name) => set({ name })}
          aria-label="大屏名称"
        />
      </label>
      <div>
        显示范围
        <RadioGroup
          value={draft.scopeKind}
          onChange={(event) => set({ scopeKind: event.target.value as ScopeKind, showNames: false })}
          aria-label="显示范围"
        >
          {(['school', 'schoolYear', 'class'] as const).map((kind) => (
            <Radio key={kind} value={kind} disabled={kind === 'school' && !options.wholeSchool}>
              {SCOPE_KIND_LABELS[kind]}
            </Radio>
          ))}
        </RadioGroup>
      </div>
      {draft.scopeKind !== 'school' ? (
        <Select
          placeholder="选择学年"
          aria-label="学年"
          value={year?.id}
          optionList={options.schoolYears.map((y) => ({ value: y.id, label: y.name }))}
          onChange={(value) => set({ schoolYearId: value as number, classId: null, showNames: false })}
        />
      ) : null}
      {draft.scopeKind === 'class' ? (
        <Select
          placeholder="选择班级"
          aria-label="班级"
          value={draft.classId ?? undefined}
          optionList={(year?.classes ?? []).map((c) => ({ value: c.id, label: c.name }))}
          onChange={(value) => set({ classId: value as number })}
        />
      ) : null}
      <div>
        显示内容（轮流显示）
        <CheckboxGroup
          value={draft.panels}
          onChange={(panels) => set({ panels: SCREEN_PANELS.filter((p) => (panels as string[]).includes(p)) })}
          aria-label="显示内容"
        >
          {SCREEN_PANELS.map((panel) => (
            <Checkbox key={panel} value={panel}>
              {PANEL_LABELS[panel]}
            </Checkbox>
          ))}
        </CheckboxGroup>
      </div>
      <div>
        <Switch
          checked={draft.showNames}
          disabled={!namesAllowed}
          onChange={(showNames) => set({ showNames })}
          aria-label="显示学生姓名和排名"
        />{' '}
        显示学生姓名和排名
        <p style={{ color: 'var(--semi-color-text-2)', margin: '4px 0 0' }}>
          {namesAllowed
            ? '大屏面向公众：仅在确有需要时开启。'
            : '义务教育阶段（小学、初中）不公布学生成绩和排名，全校范围也不显示姓名：大屏只显示班级和年级的统计。'}
        </p>
      </div>
    </div>
  );
}

/** Whether a screen's school year allows student names (never a whole-school screen). */
function namesAllowedFor(options: ScreenOptions, screen: Pick<Screen, 'scopeKind' | 'schoolYearId' | 'classId'>): boolean {
  if (screen.scopeKind === 'school') return false;
  const year =
    options.schoolYears.find((y) => y.id === screen.schoolYearId) ??
    options.schoolYears.find((y) => y.classes.some((c) => c.id === screen.classId));
  return Boolean(year?.namesAllowed);
}

function draftOf(screen: Screen): Draft {
  return {
    code: '',
    name: screen.name,
    scopeKind: screen.scopeKind,
    schoolYearId: screen.schoolYearId,
    classId: screen.classId,
    panels: screen.panels,
    showNames: screen.showNames,
  };
}

function toBody(draft: Draft): ScreenUpdate {
  return {
    name: draft.name,
    scopeKind: draft.scopeKind,
    schoolYearId: draft.scopeKind === 'schoolYear' ? draft.schoolYearId : null,
    classId: draft.scopeKind === 'class' ? draft.classId : null,
    panels: draft.panels,
    showNames: draft.showNames,
  };
}

export function ScreensManager({ http, initialCode }: { http: HttpClient; initialCode: string | null }) {
  const [open, setOpen] = useState(false);
  const [options, setOptions] = useState<ScreenOptions | null>(null);
  const [screens, setScreens] = useState<Screen[]>([]);
  const [draft, setDraft] = useState<Draft>({ ...EMPTY, code: initialCode ?? '' });
  const [editing, setEditing] = useState<{ id: number; draft: Draft } | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<number | null>(null);

  const load = useCallback(async () => {
    const [nextOptions, list] = await Promise.all([
      http.get('/api/screens/options', undefined, { schema: screenOptionsSchema, silent: true }),
      http.get('/api/screens', undefined, { schema: screenListSchema, silent: true }),
    ]);
    setOptions(nextOptions);
    setScreens(list);
  }, [http]);

  // Only admins and grade directors may manage screens: the button shows once the server agrees. A
  // server busy or out of reach (no answer, 5xx) is asked again, so the button still comes.
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const attempt = (tries: number) =>
      load().catch((error: unknown) => {
        const transient = !(error instanceof ApiRequestError) || error.status === 0 || error.status >= 500;
        if (live && transient && tries < LOAD_TRIES) timer = setTimeout(() => void attempt(tries + 1), LOAD_RETRY_MS * tries);
      });
    queueMicrotask(() => void attempt(1));
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [load]);

  // Opened by a screen's QR code: the sheet opens once it is there. Semi's SideSheet, like its Modal, opens
  // dependably when `visible` changes, not always when it mounts visible (the e2e pairing test's flake).
  const loaded = options !== null;
  useEffect(() => {
    if (!loaded || initialCode === null) return;
    const frame = requestAnimationFrame(() => setOpen(true));
    return () => cancelAnimationFrame(frame);
  }, [loaded, initialCode]);

  if (!options) return null;

  const pair = async () => {
    setBusy(true);
    try {
      const screen = await http.postJson('/api/screens', { code: draft.code, ...toBody(draft) }, screenSchema);
      Toast.success({ content: `已配对：${screen.name}` });
      setDraft({ ...EMPTY });
      await load();
    } catch {
      // The error is shown by the HTTP client.
    } finally {
      setBusy(false);
    }
  };

  const save = async () => {
    if (!editing) return;
    setBusy(true);
    try {
      await http.putJson(`/api/screens/${editing.id}`, toBody(editing.draft), screenSchema);
      Toast.success({ content: '已保存，大屏会自动更新' });
      setEditing(null);
      await load();
    } catch {
      // shown by the HTTP client
    } finally {
      setBusy(false);
    }
  };

  /** The list's 显示学生姓名 switch: the server refuses it (and says why) where the school year does not allow names. */
  const toggleNames = async (screen: Screen, showNames: boolean) => {
    setBusy(true);
    try {
      await http.putJson(`/api/screens/${screen.id}`, toBody({ ...draftOf(screen), showNames }), screenSchema);
      Toast.success({ content: showNames ? `${screen.name}：显示学生姓名` : `${screen.name}：不显示学生姓名` });
      await load();
    } catch {
      // shown by the HTTP client
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (screen: Screen) => {
    setConfirming(null);
    await http.deleteQuery(`/api/screens/${screen.id}`);
    Toast.success({ content: `已撤销：${screen.name}` });
    await load();
  };

  return (
    <>
      <Button theme="solid" onClick={() => setOpen(true)}>
        大屏管理
      </Button>
      <SideSheet title="大屏管理" visible={open} onCancel={() => setOpen(false)} width={640}>
        {options ? (
          <div style={{ display: 'grid', gap: 16 }}>
            <section aria-label="配对新大屏">
              <h3>配对新大屏</h3>
              <p style={{ color: 'var(--semi-color-text-2)' }}>
                在墙上的电脑打开 /largescreen.html?kiosk=1，屏幕上会显示配对码；在这里输入配对码并选择显示内容。
              </p>
              <ScreenForm options={options} draft={draft} onChange={setDraft} withCode />
              <Button theme="solid" style={{ marginTop: 12 }} loading={busy} onClick={() => void pair()}>
                配对
              </Button>
            </section>
            <section aria-label="已配对的大屏">
              <h3>已配对的大屏</h3>
              <Table
                size="small"
                pagination={false}
                rowKey="id"
                dataSource={screens}
                empty="还没有配对的大屏"
                columns={[
                  { title: '名称', dataIndex: 'name' },
                  { title: '范围', dataIndex: 'scopeLabel' },
                  {
                    title: '状态',
                    render: (_: unknown, s: Screen) =>
                      s.connected ? (
                        <Tag color="green">{s.lastSeenAt ? `在线 ${clockText(s.lastSeenAt)}` : '已配对'}</Tag>
                      ) : (
                        <Tag color="orange">等待大屏领取</Tag>
                      ),
                  },
                  {
                    title: '显示学生姓名',
                    render: (_: unknown, s: Screen) => {
                      // Shown as it is stored, but only switchable where the year allows names (the server decides too).
                      const allowed = namesAllowedFor(options, s);
                      return (
                        <span title={allowed ? undefined : '该学年不允许在大屏上公开学生姓名'}>
                          <Switch
                            size="small"
                            checked={s.showNames}
                            disabled={busy || (!allowed && !s.showNames)}
                            onChange={(on) => void toggleNames(s, on)}
                            aria-label={`${s.name} 显示学生姓名`}
                          />
                        </span>
                      );
                    },
                  },
                  {
                    title: '操作',
                    render: (_: unknown, s: Screen) => (
                      <span style={{ display: 'flex', gap: 8 }}>
                        <Button size="small" onClick={() => setEditing({ id: s.id, draft: draftOf(s) })}>
                          修改
                        </Button>
                        {confirming === s.id ? (
                          <Button size="small" type="danger" theme="solid" onClick={() => void revoke(s)}>
                            确认撤销（大屏立即断开）
                          </Button>
                        ) : (
                          <Button size="small" type="danger" onClick={() => setConfirming(s.id)}>
                            撤销
                          </Button>
                        )}
                      </span>
                    ),
                  },
                ]}
              />
            </section>
            {editing ? (
              <section aria-label="修改大屏">
                <h3>修改大屏</h3>
                <ScreenForm
                  options={options}
                  draft={editing.draft}
                  onChange={(next) => setEditing({ ...editing, draft: next })}
                  withCode={false}
                />
                <span style={{ display: 'flex', gap: 8, marginTop: 12 }}>
                  <Button theme="solid" loading={busy} onClick={() => void save()}>
                    保存
                  </Button>
                  <Button onClick={() => setEditing(null)}>取消</Button>
                </span>
              </section>
            ) : null}
          </div>
        ) : (
          <p>正在加载…</p>
        )}
      </SideSheet>
    </>
  );
}
