import { Button, Empty, Toast, Typography } from '@douyinfe/semi-ui-19';
import { LazyTable } from '../../shared/ui/lazy-table';
import { useCallback } from 'react';
import type { JoinRequest } from '../../shared/contract/org';
import { decideJoinRequest, fetchJoinRequests } from './team-api';
import { useTeamServices } from './team-services';
import { useLoaded } from './use-team-data';
import styles from './team.module.css';

/** 加入申请 on /team/member: teachers who entered the 学校码, to approve (they join as 教师) or decline. */
export function JoinRequestsPanel({ orgId, onJoined }: { orgId: number; onJoined: () => void }) {
  const { http } = useTeamServices();
  const load = useCallback(() => fetchJoinRequests(http, orgId), [http, orgId]);
  const requests = useLoaded(load);
  const decide = async (request: JoinRequest, approve: boolean) => {
    try {
      await decideJoinRequest(http, orgId, request.id, approve);
      Toast.success(approve ? `${request.nickname} 已加入学校` : `已拒绝 ${request.nickname} 的申请`);
      requests.reload();
      if (approve) onJoined();
    } catch {
      // Shown by the HTTP client (e.g. decided meanwhile by another admin).
      requests.reload();
    }
  };
  return (
    <section className={styles.tableWrap} aria-label="加入申请">
      <Typography.Title heading={5} style={{ marginTop: 16 }}>
        加入申请
      </Typography.Title>
      <LazyTable<JoinRequest>
        rowKey="id"
        size="small"
        loading={requests.loading}
        dataSource={requests.data ?? []}
        pagination={false}
        empty={<Empty description="暂无待审批的加入申请（老师在“我的团队”输入学校码即可申请）" />}
        columns={[
          { title: '姓名', dataIndex: 'nickname' },
          { title: '手机号', dataIndex: 'mobile', render: (m: string | null) => m ?? '—' },
          { title: '申请时间', dataIndex: 'createdAt', render: (at: string) => new Date(at).toLocaleString('zh-CN') },
          {
            title: '操作',
            render: (_: unknown, request: JoinRequest) => (
              <div className={styles.row}>
                <Button size="small" theme="solid" onClick={() => void decide(request, true)}>
                  同意
                </Button>
                <Button size="small" type="danger" onClick={() => void decide(request, false)}>
                  拒绝
                </Button>
              </div>
            ),
          },
        ]}
      />
    </section>
  );
}
