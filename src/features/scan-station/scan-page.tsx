/**
 * The portal's /scan page: the scanning workspace, opened only when a school year is chosen (spec §4
 * "Scan"); without one it says what to do instead.
 */
import { Banner, Typography } from '@douyinfe/semi-ui-19';
import { MESSAGES } from '../../shared/contract/envelope';
import styles from './scan-station.module.css';
import { ScanWorkspace } from './scan-workspace';

/** `homeworkId`: the homework to scan for, as 作业列表's 扫描 action opens /scan?homeworkId=. */
export function ScanPage({ schoolYearChosen, homeworkId = null }: { schoolYearChosen: boolean; homeworkId?: number | null }) {
  return (
    <main className={styles.station}>
      <Typography.Title heading={3}>扫描</Typography.Title>
      {schoolYearChosen ? (
        <ScanWorkspace initialHomeworkId={homeworkId} photos />
      ) : (
        <Banner
          type="danger"
          closeIcon={null}
          description={`${MESSAGES.scanNeedsSchoolYear}（在页面顶部的学年下拉框中选择）。`}
        />
      )}
    </main>
  );
}
