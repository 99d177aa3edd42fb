/**
 * The staff-room scan PC kiosk (scanstation.html): a staff member logs in once (the session is kept like
 * the portal's, so a reload stays logged in), then the station shows the scanning workspace. The login
 * form and the session come from the entry.
 */
import { IconExit } from '@douyinfe/semi-icons';
import { Button, Card, Space, Typography } from '@douyinfe/semi-ui-19';
import type { ReactNode } from 'react';
import styles from './scan-station.module.css';
import { ScanWorkspace } from './scan-workspace';

export type ScanStationAppProps = {
  /** The logged-in staff member's name, or null before login. */
  userName: string | null;
  /** The name of the user's school, shown beside the title. */
  schoolName: string | null;
  loginForm: ReactNode;
  onLogout: () => void;
};

export function ScanStationApp({ userName, schoolName, loginForm, onLogout }: ScanStationAppProps) {
  return (
    <main className={styles.station}>
      <header className={styles.header}>
        <Typography.Title heading={2}>智慧作业 · 扫描站</Typography.Title>
        {userName ? (
          <Space>
            <Typography.Text>
              {schoolName ? `${schoolName} · ` : ''}
              {userName}
            </Typography.Text>
            <Button icon={<IconExit />} theme="borderless" onClick={onLogout}>
              退出登录
            </Button>
          </Space>
        ) : null}
      </header>
      {userName ? (
        <ScanWorkspace />
      ) : (
        <Card className={styles.login} title="请使用教职工账号登录扫描站">
          {loginForm}
        </Card>
      )}
    </main>
  );
}
