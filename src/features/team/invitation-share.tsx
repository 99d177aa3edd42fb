import { Button, Toast, Typography } from '@douyinfe/semi-ui-19';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { invitationPath, type Invitation } from '../../shared/contract/org';
import styles from './team.module.css';

/** The full link of an invitation, on this site. */
export function invitationUrl(invitation: Pick<Invitation, 'token'>) {
  return `${window.location.origin}${invitationPath(invitation.token)}`;
}

/** An invitation as it is handed on: its link, the link's QR code and the 6-digit code. */
export function InvitationShare({ invitation }: { invitation: Invitation }) {
  const url = invitationUrl(invitation);
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(url, { margin: 1, width: 360 })
      .then((data) => {
        if (live) setQr(data);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [url]);

  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      Toast.success('已复制');
    } catch {
      Toast.warning('复制失败，请手动选择复制');
    }
  };

  return (
    <div className={styles.share}>
      {qr ? <img src={qr} alt="邀请二维码" /> : null}
      <div style={{ flex: '1 1 240px', minWidth: 0 }}>
        <Typography.Text type="tertiary">邀请码</Typography.Text>
        <div className={styles.code} data-testid="invitation-code">
          {invitation.code}
        </div>
        <Typography.Text type="tertiary">邀请链接</Typography.Text>
        <Typography.Paragraph className={styles.link} data-testid="invitation-link">
          {url}
        </Typography.Paragraph>
        <div className={styles.row}>
          <Button onClick={() => copy(url)}>复制链接</Button>
          <Button onClick={() => copy(invitation.code)}>复制邀请码</Button>
        </div>
        <Typography.Paragraph type="tertiary" style={{ marginTop: 8 }}>
          有效期至 {new Date(invitation.expiresAt).toLocaleString('zh-CN')}，可使用 {invitation.maxUses} 次（已用{' '}
          {invitation.usedCount} 次）。
        </Typography.Paragraph>
      </div>
    </div>
  );
}
