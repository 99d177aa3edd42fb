import { Button, Empty, Form, Input, Modal, Space, Tag, Toast, Typography } from '@douyinfe/semi-ui-19';
import { useState } from 'react';
import type { SchoolStructure } from '../../shared/contract/org';
import {
  archiveClass,
  archiveSubject,
  createClass,
  createSchoolYear,
  createSubject,
  fetchCurrentUser,
  promoteSchoolYear,
  renameClass,
  renameSubject,
} from './team-api';
import { useTeamServices } from './team-services';
import styles from './team.module.css';

/** What 升年级 will do to a school year, in words for the confirm dialog (null: it names no grade). */
export async function promotionSummary(year: SchoolStructure['schoolYears'][number]): Promise<string | null> {
  // Loaded when 升年级 is pressed (keeps 学校设置's first load as it was).
  const { promotedName, promotionOf } = await import('../../shared/lib/grade-ladder');
  const promotion = promotionOf(year.name);
  if (!promotion) return null;
  const active = year.classes.filter((c) => !c.archived);
  if (promotion.to === null) {
    return `${year.name} 已是${promotion.from}（最高年级），升级后整个学年毕业归档：${active.length} 个班级归档，学生、作业和成绩都保留，可在“显示已归档”中查看。`;
  }
  const renamed = active.filter((c) => promotedName(c.name, promotion) !== c.name);
  const examples = renamed
    .slice(0, 3)
    .map((c) => `${c.name} → ${promotedName(c.name, promotion)}`)
    .join('、');
  return `${year.name} 将升为 ${promotedName(year.name, promotion)}：${active.length} 个班级随之升级${
    examples ? `（${examples}${renamed.length > 3 ? ' 等' : ''}）` : ''
  }，学生、任课和班主任不变；已布置的作业仍显示原来的班级名称。`;
}

/** Asks for a name in a small dialog; resolves null when cancelled. */
function askName(title: string, initial = '', hint?: string): Promise<string | null> {
  let value = initial;
  return new Promise((resolve) => {
    Modal.confirm({
      title,
      icon: null,
      content: (
        <div>
          <Input defaultValue={initial} autoFocus maxLength={40} onChange={(v) => (value = v)} aria-label={title} />
          {hint ? <Typography.Text type="tertiary">{hint}</Typography.Text> : null}
        </div>
      ),
      onOk: () => resolve(value.trim() || null),
      onCancel: () => resolve(null),
    });
  });
}

/** School years with their classes, and subjects: read by everyone, changed by the creator and admins. */
export function SchoolStructurePanel({
  orgId,
  structure,
  canManage,
  onChanged,
}: {
  orgId: number;
  structure: SchoolStructure;
  canManage: boolean;
  onChanged: () => void;
}) {
  const { http, user, onUserChanged } = useTeamServices();
  const [showArchived, setShowArchived] = useState(false);
  const [addingYear, setAddingYear] = useState(false);

  const run = async (action: () => Promise<unknown>, done: string) => {
    try {
      await action();
      Toast.success(done);
      onChanged();
      return true;
    } catch {
      // The HTTP client has shown the server's message.
      return false;
    }
  };

  /**
   * A change to a school year (升年级, rename, archive): when it is the user's default one, the session
   * takes the user as the server now answers it, so the top bar shows the new name without a reload.
   */
  const runOnYear = async (yearId: number, action: () => Promise<unknown>, done: string) => {
    if (!(await run(action, done))) return;
    const info = user?.userGradeInfo;
    if (!user || info?.orgDefaultId !== orgId || info.classDefaultId !== yearId) return;
    onUserChanged(await fetchCurrentUser(http).catch(() => user));
  };

  const addYear = async (values: { name: string; classCount: number }) => {
    const count = Math.max(0, Math.min(40, Math.floor(values.classCount ?? 0)));
    const classNames = Array.from({ length: count }, (_, i) => `${i + 1}班`);
    setAddingYear(false);
    await run(() => createSchoolYear(http, orgId, values.name.trim(), classNames), '学年已创建');
    // A first school year becomes the default one: show it in the top bar.
    if (user && user.userGradeInfo.classDefaultId === null) onUserChanged(await fetchCurrentUser(http).catch(() => user));
  };

  const years = structure.schoolYears.filter((y) => showArchived || !y.archived);
  const subjects = structure.subjects.filter((s) => showArchived || !s.archived);

  return (
    <div>
      <div className={styles.header}>
        <Typography.Title heading={5}>学年与班级</Typography.Title>
        <Space>
          <Button size="small" onClick={() => setShowArchived((v) => !v)}>
            {showArchived ? '隐藏已归档' : '显示已归档'}
          </Button>
          {canManage ? (
            <Button size="small" theme="solid" onClick={() => setAddingYear(true)}>
              新建学年
            </Button>
          ) : null}
        </Space>
      </div>
      <Modal title="新建学年" visible={addingYear} onCancel={() => setAddingYear(false)} footer={null}>
        <Form<{ name: string; classCount: number }>
          labelPosition="top"
          initValues={{ name: '', classCount: 4 }}
          onSubmit={addYear}
        >
          <Form.Input
            field="name"
            label="学年名称"
            placeholder="例如：2027级"
            maxLength={40}
            rules={[{ required: true, message: '请输入学年名称' }]}
          />
          <Form.InputNumber
            field="classCount"
            label="班级数量"
            min={0}
            max={40}
            extraText="班级按「1班、2班……」命名，之后可改名"
          />
          <Button htmlType="submit" theme="solid" block>
            创建学年
          </Button>
        </Form>
      </Modal>
      {years.length === 0 ? <Empty description="还没有学年" /> : null}
      {years.map((year) => (
        <div key={year.id} className={styles.year}>
          <div className={styles.yearHead}>
            <Typography.Text strong className={year.archived ? styles.archived : undefined}>
              {year.name}
            </Typography.Text>
            {canManage ? (
              <Space wrap>
                <Button
                  size="small"
                  onClick={async () => {
                    const name = await askName('新建班级');
                    if (name) await run(() => createClass(http, orgId, year.id, name), '班级已创建');
                  }}
                >
                  添加班级
                </Button>
                <Button
                  size="small"
                  onClick={async () => {
                    const name = await askName('重命名学年', year.name);
                    if (name) await runOnYear(year.id, () => renameClass(http, orgId, year.id, name), '已重命名');
                  }}
                >
                  重命名
                </Button>
                <Button
                  size="small"
                  onClick={() =>
                    runOnYear(
                      year.id,
                      () => archiveClass(http, orgId, year.id, !year.archived),
                      year.archived ? '已恢复' : '已归档',
                    )
                  }
                >
                  {year.archived ? '恢复' : '归档'}
                </Button>
                {year.archived ? null : (
                  <Button
                    size="small"
                    theme="solid"
                    onClick={async () => {
                      const summary = await promotionSummary(year);
                      if (!summary) {
                        Toast.warning('学年名称中没有年级（如 初一、七年级、高一、五年级），无法升级，请先重命名学年');
                        return;
                      }
                      Modal.confirm({
                        title: `升年级：${year.name}`,
                        content: summary,
                        okText: '确认升级',
                        cancelText: '取消',
                        onOk: () => runOnYear(year.id, () => promoteSchoolYear(http, orgId, year.id), '升级完成'),
                      });
                    }}
                  >
                    升年级
                  </Button>
                )}
              </Space>
            ) : null}
          </div>
          <div className={styles.row}>
            {year.classes
              .filter((c) => showArchived || !c.archived)
              .map((klass) => (
                <Tag
                  key={klass.id}
                  size="large"
                  color={klass.archived ? 'grey' : 'blue'}
                  className={klass.archived ? styles.archived : undefined}
                  onClick={
                    canManage
                      ? async () => {
                          if (klass.archived) {
                            await run(() => archiveClass(http, orgId, klass.id, false), '班级已恢复');
                            return;
                          }
                          const name = await askName(`重命名 ${klass.name}`, klass.name);
                          if (name) await run(() => renameClass(http, orgId, klass.id, name), '已重命名');
                        }
                      : undefined
                  }
                  closable={canManage && !klass.archived}
                  onClose={(_, event) => {
                    event.preventDefault();
                    void run(() => archiveClass(http, orgId, klass.id, true), '班级已归档');
                  }}
                >
                  {klass.name}
                </Tag>
              ))}
            {year.classes.length === 0 ? <Typography.Text type="tertiary">暂无班级</Typography.Text> : null}
          </div>
        </div>
      ))}

      <div className={styles.header} style={{ marginTop: 24 }}>
        <Typography.Title heading={5}>学科</Typography.Title>
        {canManage ? (
          <Button
            size="small"
            theme="solid"
            onClick={async () => {
              const name = await askName('新建学科');
              if (name) await run(() => createSubject(http, orgId, name), '学科已创建');
            }}
          >
            新建学科
          </Button>
        ) : null}
      </div>
      <div className={styles.row}>
        {subjects.map((subject) => (
          <Tag
            key={subject.id}
            size="large"
            color={subject.archived ? 'grey' : 'green'}
            className={subject.archived ? styles.archived : undefined}
            onClick={
              canManage
                ? async () => {
                    if (subject.archived) {
                      await run(() => archiveSubject(http, orgId, subject.id, false), '学科已恢复');
                      return;
                    }
                    const name = await askName(`重命名 ${subject.name}`, subject.name);
                    if (name) await run(() => renameSubject(http, orgId, subject.id, name), '已重命名');
                  }
                : undefined
            }
            closable={canManage && !subject.archived}
            onClose={(_, event) => {
              event.preventDefault();
              void run(() => archiveSubject(http, orgId, subject.id, true), '学科已归档');
            }}
          >
            {subject.name}
          </Tag>
        ))}
      </div>
      {canManage ? (
        <Typography.Paragraph type="tertiary" style={{ marginTop: 8 }}>
          点击班级或学科可重命名，点击 × 归档（历史作业和成绩保留）；显示已归档后点击已归档的班级或学科可恢复。
        </Typography.Paragraph>
      ) : null}
    </div>
  );
}
