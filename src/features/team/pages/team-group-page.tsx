import { Button, Card, Descriptions, Popconfirm, Select, Spin, Tag, Toast, Typography } from '@douyinfe/semi-ui-19';
import { LazyTable } from '../../../shared/ui/lazy-table';
import { useCallback } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ROLE_LABELS, type Member } from '../../../shared/contract/org';
import { NoSchoolPanel } from '../no-school-panel';
import { fetchMembers, fetchSchool, fetchStructure, leaveSchool, switchSchool } from '../team-api';
import { useTeamServices } from '../team-services';
import { namesOf, useLoaded } from '../use-team-data';
import styles from '../team.module.css';

/** /team/group (members, no top bar): my school, my classes and subjects, colleagues, switch and leave. */
export function TeamGroupPage() {
  const { http, user, onUserChanged } = useTeamServices();
  const navigate = useNavigate();
  const orgId = user?.userGradeInfo.orgDefaultId ?? null;
  const loadSchool = useCallback(() => fetchSchool(http, orgId!), [http, orgId]);
  const loadStructure = useCallback(() => fetchStructure(http, orgId!), [http, orgId]);
  const loadMembers = useCallback(() => fetchMembers(http, orgId!), [http, orgId]);
  const school = useLoaded(orgId ? loadSchool : null);
  const structure = useLoaded(orgId ? loadStructure : null);
  const members = useLoaded(orgId ? loadMembers : null);

  const header = (
    <div className={styles.header}>
      <Typography.Title heading={3}>我的团队</Typography.Title>
      <Link to="/paperlist">返回作业列表</Link>
    </div>
  );

  if (!user) return null;
  if (orgId === null) {
    return (
      <main className={styles.frame}>
        {header}
        <Typography.Paragraph>您还没有加入任何学校：创建一所学校，或用邀请加入。</Typography.Paragraph>
        <NoSchoolPanel />
      </main>
    );
  }

  const names = structure.data ? namesOf(structure.data) : null;
  const me = members.data?.find((m) => m.userId === user.id);
  const myDuties =
    me && names
      ? [
          ...me.gradeDirectorOf.map((id) => ({ key: `g${id}`, label: `${names.years.get(id)} 年级主任` })),
          ...me.classTeacherOf.map((id) => ({ key: `c${id}`, label: `${names.classes.get(id)} 班主任` })),
          ...me.assignments.map((a) => ({
            key: `a${a.classId}:${a.subjectId}`,
            label: `${names.classes.get(a.classId)} · ${names.subjects.get(a.subjectId)}`,
          })),
        ]
      : [];

  const change = async (orgToUse: number) => {
    try {
      onUserChanged(await switchSchool(http, orgToUse));
      Toast.success('已切换学校');
    } catch {
      // Shown by the HTTP client.
    }
  };

  const leave = async () => {
    try {
      onUserChanged(await leaveSchool(http, orgId));
      Toast.success('已退出学校');
      navigate('/team/group');
    } catch {
      // Shown by the HTTP client.
    }
  };

  return (
    <main className={styles.frame}>
      {header}
      {school.loading && !school.data ? <Spin /> : null}
      {school.data ? (
        <Card
          title={school.data.name}
          headerExtraContent={
            <div className={styles.row}>
              {school.data.canManage ? <Link to="/team/member">团队管理</Link> : null}
              <Link to={`/team/details?orgId=${orgId}&isCreator=${school.data.myRole === 'creator'}`}>学校设置</Link>
            </div>
          }
        >
          <Descriptions
            data={[
              { key: '我的角色', value: <Tag color="blue">{ROLE_LABELS[school.data.myRole]}</Tag> },
              { key: '所在地区', value: school.data.region || '—' },
              { key: '成员', value: `${school.data.memberCount} 人` },
            ]}
          />
          {user.orgs.length > 1 ? (
            <div className={styles.row} style={{ marginTop: 12 }}>
              <Typography.Text>切换学校：</Typography.Text>
              <Select
                style={{ width: 220 }}
                value={orgId}
                aria-label="切换学校"
                optionList={user.orgs.map((o) => ({ value: o.id, label: o.name }))}
                onChange={(value) => void change(Number(value))}
              />
            </div>
          ) : null}
        </Card>
      ) : null}

      <section className={styles.section}>
        <Typography.Title heading={5}>我的班级与学科</Typography.Title>
        <div className={styles.row} style={{ marginTop: 8 }}>
          {myDuties.length > 0 ? (
            myDuties.map((d) => (
              <Tag key={d.key} size="large">
                {d.label}
              </Tag>
            ))
          ) : (
            <Typography.Text type="tertiary">还没有分配班级和学科，请联系学校管理员。</Typography.Text>
          )}
        </div>
      </section>

      <section className={styles.section}>
        <Typography.Title heading={5}>同事</Typography.Title>
        <div className={styles.tableWrap}>
          <LazyTable<Member>
            rowKey="userId"
            size="small"
            loading={members.loading}
            dataSource={members.data ?? []}
            pagination={false}
            columns={[
              { title: '姓名', dataIndex: 'nickname' },
              { title: '角色', dataIndex: 'role', render: (role: Member['role']) => ROLE_LABELS[role] },
              {
                title: '任课',
                render: (_: unknown, m: Member) =>
                  names ? [...new Set(m.assignments.map((a) => names.subjects.get(a.subjectId)))].join('、') || '—' : '',
              },
            ]}
          />
        </div>
      </section>

      <section className={styles.section}>
        <Popconfirm title="退出后将无法再查看该学校的作业和成绩（您的作业仍保留在学校），确定退出吗？" onConfirm={leave}>
          <span>
            <Button type="danger">退出学校</Button>
          </span>
        </Popconfirm>
      </section>
    </main>
  );
}
