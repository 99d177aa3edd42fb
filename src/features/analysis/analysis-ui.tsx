/** Small pieces the analysis pages share: query states, stat cards, headers with their denominator, the export button. */
import { IconDownload, IconHelpCircle } from '@douyinfe/semi-icons';
import { Button, Card, Empty, Spin, Tooltip, Typography } from '@douyinfe/semi-ui-19';
import { useState, type ReactNode } from 'react';
import { useAnalysisServices } from './analysis-services';
import { saveBlob, workbookBlob } from './export-xlsx';
import styles from './analysis.module.css';
import { Illustration } from '../../shared/ui/illustration';

export function QueryState({
  loading,
  error,
  empty,
  emptyText = '暂无数据',
  emptyHint,
  children,
}: {
  loading: boolean;
  error: unknown;
  empty?: boolean;
  emptyText?: string;
  /** What to do about it: where the missing classes or scores come from. */
  emptyHint?: string;
  children: () => ReactNode;
}) {
  if (loading) return <Spin size="large" tip="正在计算…" wrapperClassName={styles.state} spinning />;
  if (error) return <Empty className={styles.state} title="加载失败" description="数据暂时无法读取，请稍后重试" />;
  if (empty)
    return <Empty className={styles.state} image={<Illustration name="NoContent" />} title={emptyText} description={emptyHint} />;
  return <>{children()}</>;
}

export function StatCard({ title, value, hint }: { title: ReactNode; value: ReactNode; hint?: ReactNode }) {
  return (
    <Card className={styles.card} bodyStyle={{ padding: 12 }}>
      <div className={styles.cardTitle}>{title}</div>
      <div className={styles.cardValue}>{value}</div>
      {hint ? <div className={styles.cardHint}>{hint}</div> : null}
    </Card>
  );
}

/** A label with a tooltip naming its denominator. */
export function Explained({ label, help }: { label: string; help: string }) {
  return (
    <Tooltip content={help}>
      <span className={styles.explained}>
        {label} <IconHelpCircle size="small" />
      </span>
    </Tooltip>
  );
}

export function Section({
  title,
  extra,
  children,
  keepTogether = false,
}: {
  title: ReactNode;
  extra?: ReactNode;
  children: ReactNode;
  /** On paper, kept on one page when it fits (a short table, a list): not cut by a page break. */
  keepTogether?: boolean;
}) {
  return (
    <section className={keepTogether ? `${styles.section} ${styles.keepTogether}` : styles.section}>
      <div className={styles.sectionHead}>
        <Typography.Title heading={5}>{title}</Typography.Title>
        {extra}
      </div>
      {children}
    </section>
  );
}

export type SheetData = { name: string; header: string[]; rows: (string | number | null)[][] };

export function ExportButton({ fileName, sheets }: { fileName: string; sheets: () => SheetData[] }) {
  const { saveFile } = useAnalysisServices();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      icon={<IconDownload />}
      loading={busy}
      className={styles.noPrint}
      onClick={async () => {
        setBusy(true);
        try {
          const blob = await workbookBlob(sheets());
          (saveFile ?? saveBlob)(blob, fileName);
        } finally {
          setBusy(false);
        }
      }}
    >
      导出 Excel
    </Button>
  );
}
