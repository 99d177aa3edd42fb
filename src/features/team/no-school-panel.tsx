import { Button, Card, Form, Tag, Toast, Typography } from '@douyinfe/semi-ui-19';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { SCHOOL_TYPES, type SchoolType } from '../../shared/contract/org';
import { createSchool, fetchCurrentUser, fetchMyJoinRequests, requestToJoin } from './team-api';
import { useLoaded } from './use-team-data';
import { useTeamServices } from './team-services';
import styles from './team.module.css';

const JOIN_STATUS_LABELS = { pending: '待审批', approved: '已同意', declined: '已拒绝' } as const;

/**
 * For a user in no school: create one (and become its creator), join one with a 6-digit invitation
 * code, or ask to join with the school's 学校码 (an admin approves).
 */
export function NoSchoolPanel() {
  const { http, onUserChanged } = useTeamServices();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const loadMine = useCallback(() => fetchMyJoinRequests(http), [http]);
  const mine = useLoaded(loadMine);
  const ask = async ({ schoolCode }: { schoolCode: string }) => {
    try {
      const request = await requestToJoin(http, schoolCode);
      Toast.success(`已向 ${request.schoolName} 提交申请，请等待学校管理员审批`);
      mine.reload();
    } catch {
      // The HTTP client has shown the server's message (unknown code, already a member).
    }
  };

  const create = async (values: { name: string; region: string; schoolType: SchoolType }) => {
    setBusy(true);
    try {
      const user = await createSchool(http, values);
      onUserChanged(user);
      Toast.success('学校已创建');
      navigate(`/team/details?orgId=${user.userGradeInfo.orgDefaultId}&isCreator=true`);
    } catch {
      // The HTTP client has shown the server's message.
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={styles.share}>
      <Card title="创建学校" style={{ flex: '1 1 320px' }}>
        <Typography.Paragraph type="tertiary">
          创建后您将成为学校的创建者，可以设置学年、班级和学科，并邀请老师加入。
        </Typography.Paragraph>
        <Form<{ name: string; region: string; schoolType: SchoolType }>
          onSubmit={create}
          initValues={{ name: '', region: '', schoolType: '初中' }}
          labelPosition="top"
        >
          <Form.Input field="name" label="学校名称" maxLength={40} rules={[{ required: true, message: '请输入学校名称' }]} />
          <Form.Input
            field="region"
            label="所在地区"
            placeholder="例如：浙江省杭州市西湖区"
            maxLength={60}
            rules={[{ required: true, message: '请输入所在地区' }]}
          />
          <Form.RadioGroup field="schoolType" label="学校类型">
            {SCHOOL_TYPES.map((type) => (
              <Form.Radio key={type} value={type}>
                {type}
              </Form.Radio>
            ))}
          </Form.RadioGroup>
          <Button htmlType="submit" theme="solid" loading={busy} block>
            创建学校
          </Button>
        </Form>
      </Card>
      <Card title="加入学校" style={{ flex: '1 1 260px' }}>
        <Typography.Paragraph type="tertiary">请向学校管理员索取邀请链接，或输入 6 位邀请码。</Typography.Paragraph>
        <Form<{ code: string }> onSubmit={({ code }) => navigate(`/invite?code=${code.trim()}`)} labelPosition="top">
          <Form.Input
            field="code"
            label="邀请码"
            maxLength={6}
            rules={[{ required: true, pattern: /^\s*\d{6}\s*$/, message: '邀请码为 6 位数字' }]}
          />
          <Button htmlType="submit" block>
            查看邀请
          </Button>
        </Form>
      </Card>
      <Card title="用学校码申请加入" style={{ flex: '1 1 260px' }}>
        <Typography.Paragraph type="tertiary">
          没有邀请？输入学校的 8 位学校码（在学校设置中可见）提交申请，学校管理员同意后即可加入。
        </Typography.Paragraph>
        <Form<{ schoolCode: string }> onSubmit={ask} labelPosition="top">
          <Form.Input
            field="schoolCode"
            label="学校码"
            maxLength={8}
            rules={[{ required: true, pattern: /^\s*[0-9A-Za-z]{8}\s*$/, message: '学校码为 8 位数字或字母' }]}
          />
          <Button htmlType="submit" block>
            申请加入
          </Button>
        </Form>
        {(mine.data ?? []).length > 0 ? (
          <ul className={styles.plainList} aria-label="我的加入申请">
            {(mine.data ?? []).map((request) => (
              <li key={request.id}>
                {request.schoolName}{' '}
                <Tag color={request.status === 'pending' ? 'blue' : request.status === 'approved' ? 'green' : 'red'}>
                  {JOIN_STATUS_LABELS[request.status]}
                </Tag>
                {request.status === 'approved' ? (
                  <Button
                    size="small"
                    theme="borderless"
                    onClick={() =>
                      void fetchCurrentUser(http)
                        .then(onUserChanged)
                        .catch(() => undefined)
                    }
                  >
                    进入学校
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
      </Card>
    </div>
  );
}
