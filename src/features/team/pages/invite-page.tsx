import { Button, Spin, Toast, Typography } from '@douyinfe/semi-ui-19';
import { useCallback, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { ORG_MESSAGES, ROLE_LABELS, type InvitationStatus } from '../../../shared/contract/org';
import { acceptInvitation, previewInvitation } from '../team-api';
import { useTeamServices } from '../team-services';
import { useLoaded } from '../use-team-data';
import styles from '../team.module.css';

const STATUS_TEXT: Record<Exclude<InvitationStatus, 'active'>, string> = {
  expired: ORG_MESSAGES.invitationExpired,
  usedUp: ORG_MESSAGES.invitationUsedUp,
  revoked: ORG_MESSAGES.invitationRevoked,
};

/** /invite?token= (or ?code=), no top bar: what the invitation offers, log in or register, then join. */
export function InvitePage() {
  const { http, loggedIn, onUserChanged, showLogin } = useTeamServices();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? undefined;
  const code = params.get('code') ?? undefined;
  const lookup = token ? { token } : code ? { code } : null;
  const load = useCallback(() => previewInvitation(http, lookup!), [http, token, code]); // eslint-disable-line react-hooks/exhaustive-deps
  const preview = useLoaded(lookup ? load : null);
  const [busy, setBusy] = useState(false);

  const join = async () => {
    if (!lookup) return;
    setBusy(true);
    try {
      const updated = await acceptInvitation(http, lookup);
      onUserChanged(updated);
      Toast.success(`已加入${preview.data?.schoolName ?? '学校'}`);
      navigate('/team/group');
    } catch {
      // Shown by the HTTP client.
    } finally {
      setBusy(false);
    }
  };

  let body;
  if (!lookup) body = <Typography.Paragraph>{ORG_MESSAGES.invitationNotFound}</Typography.Paragraph>;
  else if (preview.loading) body = <Spin />;
  else if (!preview.data) body = <Typography.Paragraph>{ORG_MESSAGES.invitationNotFound}</Typography.Paragraph>;
  else if (preview.data.status !== 'active') {
    body = (
      <>
        <Typography.Title heading={4}>{preview.data.schoolName}</Typography.Title>
        <Typography.Paragraph type="danger" data-testid="invite-status">
          {STATUS_TEXT[preview.data.status]}
        </Typography.Paragraph>
      </>
    );
  } else {
    body = (
      <>
        <Typography.Paragraph type="tertiary">
          {preview.data.inviterName ? `${preview.data.inviterName} 邀请您加入` : '您被邀请加入'}
        </Typography.Paragraph>
        <Typography.Title heading={3}>{preview.data.schoolName}</Typography.Title>
        <Typography.Paragraph>
          身份：{ROLE_LABELS[preview.data.role]} · 有效期至 {new Date(preview.data.expiresAt).toLocaleDateString('zh-CN')}
        </Typography.Paragraph>
        <div className={styles.actions}>
          {loggedIn ? (
            <Button theme="solid" size="large" loading={busy} onClick={join}>
              加入学校
            </Button>
          ) : (
            <>
              <Button theme="solid" size="large" onClick={() => showLogin('password')}>
                登录后加入
              </Button>
              <Button size="large" onClick={() => showLogin('register')}>
                注册新账号
              </Button>
            </>
          )}
        </div>
      </>
    );
  }

  return (
    <main className={styles.center}>
      <img src="/favicon.svg" alt="" width={40} height={40} />
      <Typography.Title heading={5} style={{ marginTop: 8 }}>
        智慧作业 · 学校邀请
      </Typography.Title>
      {body}
      {loggedIn ? (
        <Typography.Paragraph style={{ marginTop: 24 }}>
          <Link to="/paperlist">返回作业列表</Link>
        </Typography.Paragraph>
      ) : null}
    </main>
  );
}
