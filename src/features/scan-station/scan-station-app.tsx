import { Empty, Typography } from '@douyinfe/semi-ui-19';
import styles from './scan-station.module.css';

/** The staff-room scan PC kiosk. */
export function ScanStationApp() {
  return (
    <main className={styles.station}>
      <Typography.Title heading={2}>智慧作业 · 扫描站</Typography.Title>
      <Empty title="扫描站功能尚未开放" description="扫描、上传与识别将在后续版本中提供，请暂时使用教师端。" />
    </main>
  );
}
