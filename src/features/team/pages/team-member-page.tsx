import { Banner, Button, Popconfirm, Tag, Toast, Typography } from '@douyinfe/semi-ui-19';
import { LazyTable } from '../../../shared/ui/lazy-table';
import { lazy, Suspense, useCallback, useState } from 'react';
import { Link } from 'react-router-dom';
import { ROLE_LABELS, type Member } from '../../../shared/contract/org';
import { InvitationsPanel } from '../invitations-panel';

import { MemberEditDialog } from '../member-edit-dialog';
import { fetchMembers, fetchSchool, fetchStructure, removeMember } from '../team-api';
import { useTeamServices } from '../team-services';
import { namesOf, useLoaded } from '../use-team-data';
import styles from '../team.module.css';

/** 加入申请, fetched after the staff list (keeps this page's first load as it was). */
const JoinRequestsPanel = lazy(() => import('../join-requests-panel').then((module) => ({ default: module.JoinRequestsPanel })));

const ROLE_COLORS = { creator: 'red', admin: 'orange', teacher: 'blue' } as const;

/** /team/member (admins): the staff with roles and teaching, editing and removing them, and invitations. */
export function TeamMemberPage() {
  const { http, user } = useTeamServices();
  const orgId = user?.userGradeInfo.orgDefaultId ?? null;
  const loadSchool = useCallback(() => fetchSchool(http, orgId!), [http, orgId]);
  const loadStructure = useCallback(() => fetchStructure(http, orgId!), [http, orgId]);
  const loadMembers = useCallback(() => fetchMembers(http, orgId!), [http, orgId]);
  const school = useLoaded(orgId ? loadSchool : null);
  const structure = useLoaded(orgId ? loadStructure : null);
  const members = useLoaded(orgId ? loadMembers : null);
  const [editing, setEditing] = useState<Member | null>(null);

  if (orgId === null) {
    return (
      <main className={styles.frame}>
        <Typography.Title heading={3}>团队管理</Typography.Title>
        <Typography.Paragraph>
          您还没有加入任何学校，请先在 <Link to="/team/group">我的团队</Link> 创建或加入学校。
        </Typography.Paragraph>
      </main>
    );
  }
  if (school.data && !school.data.canManage) {
    return (
      <main className={styles.frame}>
        <Typography.Title heading={3}>团队管理</Typography.Title>
        <Banner type="warning" closeIcon={null} description="很抱歉，您暂无该操作权限" />
        <Typography.Paragraph style={{ marginTop: 12 }}>
          查看同事和我的班级请前往 <Link to="/team/group">我的团队</Link>。
        </Typography.Paragraph>
      </main>
    );
  }

  const names = structure.data ? namesOf(structure.data) : null;
  const duties = (m: Member) => {
    if (!names) return '';
    const parts = [
      ...m.gradeDirectorOf.map((id) => `${names.years.get(id) ?? ''}年级主任`),
      ...m.classTeacherOf.map((id) => `${names.classes.get(id) ?? ''}班主任`),
    ];
    const bySubject = new Map<number, string[]>();
    for (const a of m.assignments)
      bySubject.set(a.subjectId, [...(bySubject.get(a.subjectId) ?? []), names.classes.get(a.classId) ?? '']);
    for (const [subjectId, classNames] of bySubject)
      parts.push(`${names.subjects.get(subjectId) ?? ''}：${classNames.join('、')}`);
    return parts.join('；') || '—';
  };
  const myRole = school.data?.myRole;

  const remove = async (m: Member) => {
    try {
      await removeMember(http, orgId, m.userId);
      Toast.success('已移出学校');
      members.reload();
    } catch {
      // Shown by the HTTP client.
    }
  };

  return (
    <main className={styles.frame}>
      <div className={styles.header}>
        <Typography.Title heading={3}>团队管理{school.data ? ` · ${school.data.name}` : ''}</Typography.Title>
        <div className={styles.row}>
          <Link to={`/team/details?orgId=${orgId}&isCreator=${myRole === 'creator'}`}>学校设置</Link>
          <Link to="/team/group">我的团队</Link>
        </div>
      </div>
      <div className={styles.tableWrap}>
        <LazyTable<Member>
          rowKey="userId"
          size="small"
          loading={members.loading}
          dataSource={members.data ?? []}
          pagination={false}
          scroll={{ x: 760 }}
          columns={[
            { title: '姓名', dataIndex: 'nickname' },
            { title: '手机号', dataIndex: 'mobile', render: (m: string | null) => m ?? '—' },
            {
              title: '角色',
              dataIndex: 'role',
              render: (role: Member['role']) => <Tag color={ROLE_COLORS[role]}>{ROLE_LABELS[role]}</Tag>,
            },
            { title: '职务与任课', render: (_: unknown, m: Member) => duties(m) },
            {
              title: '操作',
              render: (_: unknown, m: Member) => {
                const touchable = m.role !== 'creator' || myRole === 'creator';
                return touchable ? (
                  <div className={styles.row}>
                    <Button size="small" onClick={() => setEditing(m)} disabled={!structure.data}>
                      编辑
                    </Button>
                    {m.userId !== user?.id ? (
                      <Popconfirm title={`将 ${m.nickname} 移出学校？其作业和成绩仍保留在学校。`} onConfirm={() => remove(m)}>
                        <span>
                          <Button size="small" type="danger">
                            移出
                          </Button>
                        </span>
                      </Popconfirm>
                    ) : null}
                  </div>
                ) : null;
              },
            },
          ]}
        />
      </div>
      <Suspense fallback={null}>
        <JoinRequestsPanel orgId={orgId} onJoined={members.reload} />
      </Suspense>
      {structure.data ? <InvitationsPanel orgId={orgId} structure={structure.data} /> : null}
      {structure.data ? (
        <MemberEditDialog
          orgId={orgId}
          member={editing}
          structure={structure.data}
          canAppointCreator={myRole === 'creator'}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            Toast.success('已保存');
            members.reload();
          }}
        />
      ) : null}
    </main>
  );
}
