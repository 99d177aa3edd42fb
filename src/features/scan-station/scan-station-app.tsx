/**
 * The staff-room scan PC kiosk (scanstation.html): a staff member logs in once (the session is kept like
 * the portal's, so a reload stays logged in), then the station shows the scanning workspace. The login
 * form and the session come from the entry.
 */
import { IconExit } from '@douyinfe/semi-icons';
import { Button, Space, Typography } from '@douyinfe/semi-ui-19';
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
        // A plain bordered box rather than Semi's Card: the Card (and the Skeleton it brings) would cost the
        // kiosk's first view 2.5 KiB gz for a border and a heading (tests/lint/bundle-budget.test.ts).
        <section className={styles.login} aria-labelledby="station-login-title">
          <h2 id="station-login-title" className={styles.loginTitle}>
            请使用教职工账号登录扫描站
          </h2>
          <div className={styles.loginBody}>{loginForm}</div>
        </section>
      )}
    </main>
  );
}
