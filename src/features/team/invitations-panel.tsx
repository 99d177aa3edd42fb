import { Button, Form, Modal, Popconfirm, Tag, Toast, Typography } from '@douyinfe/semi-ui-19';
import { LazyTable } from '../../shared/ui/lazy-table';
import { useCallback, useState } from 'react';
import { INVITATION_STATUS_LABELS, ROLE_LABELS, type Invitation, type SchoolStructure } from '../../shared/contract/org';
import { InvitationShare } from './invitation-share';
import { createInvitation, fetchInvitations, revokeInvitation } from './team-api';
import { useTeamServices } from './team-services';
import { namesOf, useLoaded } from './use-team-data';
import styles from './team.module.css';

type InviteValues = {
  role: 'admin' | 'teacher';
  schoolYearId?: number;
  classIds?: number[];
  subjectIds?: number[];
  expiresInDays: number;
  maxUses: number;
};

const STATUS_COLORS = { active: 'green', expired: 'grey', usedUp: 'orange', revoked: 'red' } as const;

/** Invitations of a school (admins): make one, see the pending ones, show one again, revoke. */
export function InvitationsPanel({ orgId, structure }: { orgId: number; structure: SchoolStructure }) {
  const { http } = useTeamServices();
  const load = useCallback(() => fetchInvitations(http, orgId), [http, orgId]);
  const invitations = useLoaded(load);
  const [creating, setCreating] = useState(false);
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<Invitation | null>(null);
  const [yearId, setYearId] = useState<number | undefined>(undefined);
  const names = namesOf(structure);
  const activeYears = structure.schoolYears.filter((y) => !y.archived);
  const classesOfYear = activeYears.find((y) => y.id === yearId)?.classes.filter((c) => !c.archived) ?? [];

  const submit = async (values: InviteValues) => {
    setBusy(true);
    try {
      const invitation = await createInvitation(http, orgId, {
        role: values.role,
        schoolYearId: values.schoolYearId ?? null,
        classIds: values.classIds ?? [],
        subjectIds: values.subjectIds ?? [],
        expiresInDays: values.expiresInDays,
        maxUses: values.maxUses,
      });
      setCreating(false);
      setShown(invitation);
      invitations.reload();
    } catch {
      // Shown by the HTTP client.
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (invitation: Invitation) => {
    try {
      await revokeInvitation(http, orgId, invitation.id);
      Toast.success('邀请已撤销');
      invitations.reload();
    } catch {
      // Shown by the HTTP client.
    }
  };

  const preset = (i: Invitation) =>
    [
      i.schoolYearId ? names.years.get(i.schoolYearId) : null,
      i.classIds.map((id) => names.classes.get(id)).join('、') || null,
      i.subjectIds.map((id) => names.subjects.get(id)).join('、') || null,
    ]
      .filter(Boolean)
      .join(' · ') || '—';

  return (
    <section className={styles.section}>
      <div className={styles.header}>
        <Typography.Title heading={5}>邀请</Typography.Title>
        <Button theme="solid" onClick={() => setCreating(true)}>
          邀请老师
        </Button>
      </div>
      <div className={styles.tableWrap}>
        <LazyTable<Invitation>
          size="small"
          rowKey="id"
          loading={invitations.loading}
          dataSource={invitations.data ?? []}
          pagination={false}
          scroll={{ x: 760 }}
          empty="还没有邀请"
          columns={[
            {
              title: '邀请码',
              dataIndex: 'code',
              render: (code: string) => (
                <span className={styles.code} style={{ fontSize: 16, letterSpacing: 2 }}>
                  {code}
                </span>
              ),
            },
            { title: '角色', dataIndex: 'role', render: (role: Invitation['role']) => ROLE_LABELS[role] },
            { title: '预设', render: (_: unknown, i: Invitation) => preset(i) },
            { title: '使用', render: (_: unknown, i: Invitation) => `${i.usedCount} / ${i.maxUses}` },
            { title: '有效期至', dataIndex: 'expiresAt', render: (at: string) => new Date(at).toLocaleDateString('zh-CN') },
            {
              title: '状态',
              dataIndex: 'status',
              render: (status: Invitation['status']) => (
                <Tag color={STATUS_COLORS[status]}>{INVITATION_STATUS_LABELS[status]}</Tag>
              ),
            },
            {
              title: '操作',
              render: (_: unknown, i: Invitation) =>
                i.status === 'active' ? (
                  <div className={styles.row}>
                    <Button size="small" onClick={() => setShown(i)}>
                      重新发送
                    </Button>
                    <Popconfirm title="撤销后该邀请链接和邀请码将失效，确定撤销吗？" onConfirm={() => revoke(i)}>
                      <span>
                        <Button size="small" type="danger">
                          撤销
                        </Button>
                      </span>
                    </Popconfirm>
                  </div>
                ) : null,
            },
          ]}
        />
      </div>

      <Modal title="邀请老师" visible={creating} onCancel={() => setCreating(false)} footer={null} width={560}>
        <Form<InviteValues>
          labelPosition="top"
          initValues={{ role: 'teacher', expiresInDays: 7, maxUses: 1 }}
          onSubmit={submit}
          onValueChange={(values) => setYearId(values.schoolYearId)}
        >
          <Form.RadioGroup field="role" label="角色">
            <Form.Radio value="teacher">教师</Form.Radio>
            <Form.Radio value="admin">管理员</Form.Radio>
          </Form.RadioGroup>
          <Form.Select
            field="schoolYearId"
            label="学年（加入后的默认学年）"
            showClear
            style={{ width: '100%' }}
            optionList={activeYears.map((y) => ({ value: y.id, label: y.name }))}
          />
          <Form.Select
            field="classIds"
            label="任教班级"
            multiple
            showClear
            style={{ width: '100%' }}
            disabled={yearId === undefined}
            placeholder={yearId === undefined ? '请先选择学年' : '可多选'}
            optionList={classesOfYear.map((c) => ({ value: c.id, label: c.name }))}
          />
          <Form.Select
            field="subjectIds"
            label="任教学科"
            multiple
            showClear
            style={{ width: '100%' }}
            optionList={structure.subjects.filter((s) => !s.archived).map((s) => ({ value: s.id, label: s.name }))}
          />
          <div className={styles.bands}>
            <Form.InputNumber field="expiresInDays" label="有效天数" min={1} max={30} />
            <Form.InputNumber field="maxUses" label="可使用次数" min={1} max={500} />
          </div>
          <Button htmlType="submit" theme="solid" loading={busy} block>
            生成邀请
          </Button>
        </Form>
      </Modal>

      <Modal title="邀请已生成" visible={shown !== null} onCancel={() => setShown(null)} footer={null} width={620}>
        {shown ? <InvitationShare invitation={shown} /> : null}
      </Modal>
    </section>
  );
}
