/**
 * The scanning workspace shared by the portal's /scan page and the scan-station kiosk: choose the
 * homework (or 按二维码识别), open 扫描设置, start scanning (button, Space or F8), and follow every page
 * from the scanner through the durable upload queue to the server, with per-page states, the upload
 * progress and plain guidance when the scanner jams, double-feeds or its service is missing.
 */
import { IconRefresh, IconScan, IconSetting } from '@douyinfe/semi-icons';
import { Banner, Button, Select, Tag, Typography } from '@douyinfe/semi-ui-19';
import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { QueuedPage, UploadItem } from '../../shared/adapters/upload-queue';
import { SCAN_SERVICE_INSTALLERS, scanServiceOsOf, type ScannedPage } from '../../shared/contract/scan';
import type { UploadState } from '../../shared/lib/upload-schedule';
import styles from './scan-station.module.css';
import { useScanStationServices, type ScanProblem } from './scan-station-services';
import { useHomeworkOptions } from './use-homework-options';
import { usePageThumbnail } from './use-page-thumbnail';
import { useScanBatch } from './use-scan-batch';
import { useUploadQueue } from './use-upload-queue';
import { ProgressBar } from '../../shared/ui/progress-bar';

const QR_OPTION = 'qr';
/** 拍照上传 loads with the portal's /scan only (the scan station never shows it). */
const PhotoUpload = lazy(() => import('./photo-upload').then((m) => ({ default: m.PhotoUpload })));
const THUMBNAILS_SHOWN = 24;

export const UPLOAD_STATE_LABELS: Record<UploadState, string> = {
  queued: '排队中',
  uploading: '上传中',
  uploaded: '已上传',
  failed: '失败',
};
const UPLOAD_STATE_COLORS = { queued: 'grey', uploading: 'blue', uploaded: 'green', failed: 'red' } as const;

const PROBLEM_GUIDANCE: Record<ScanProblem['kind'], string> = {
  jam: '请打开扫描仪盖板，取出卡住的纸张，把尚未扫描的试卷理齐放回进纸器，再按「开始扫描」。已扫描的页面已保存，不会丢失，也不会重复上传。',
  doubleFeed:
    '请取出最后进纸的几张试卷，检查是否粘连，理齐后放回进纸器，再按「开始扫描」。已扫描的页面已保存，重张的那几页请重新扫描。',
  noService: '这台电脑上没有检测到扫描服务。请下载并安装下方的扫描服务程序，安装并启动后刷新本页。',
  noScanner: '请确认扫描仪已接通电源并用数据线连接到这台电脑，然后在「扫描设置」中重新选择扫描仪。',
  other: '请在「扫描设置」中重新选择扫描仪后再试。',
};

/** Before any scanner is chosen: what 开始扫描 needs, and the way to try without a scanner. */
export const CHOOSE_SCANNER_HINT =
  '还没有选择扫描仪：请先在「扫描设置」中选择扫描仪。这台电脑没有扫描仪时，可选「模拟扫描仪（演示）」扫描演示页面。';

/** Where to get the scanning service: this computer's installer first, served by our own server. */
function ServiceInstallers() {
  const os = scanServiceOsOf(navigator.userAgent);
  const installers = [...SCAN_SERVICE_INSTALLERS].sort((a, b) => Number(b.os === os) - Number(a.os === os));
  return (
    <Banner
      type="warning"
      closeIcon={null}
      description={
        <div className={styles.installers}>
          <strong>这台电脑还没有安装扫描服务</strong>
          <span>连接真实扫描仪需要先安装扫描服务程序：下载后双击安装（需要管理员权限），安装完成后刷新本页。</span>
          <span>
            {installers.map((installer, i) => (
              <a key={installer.href} className={styles.installerLink} href={installer.href} download>
                {i === 0 ? `下载 ${installer.label} 版（推荐）` : installer.label}
              </a>
            ))}
          </span>
        </div>
      }
    />
  );
}

function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

function PageCard({ page, onRetry }: { page: QueuedPage; onRetry: () => void }) {
  const { queue } = useScanStationServices();
  const url = usePageThumbnail(queue, page.imageId);
  const label = `第 ${page.sequence} 页`;
  return (
    <li className={styles.page} aria-label={`${label}，${UPLOAD_STATE_LABELS[page.state]}`}>
      <div className={styles.thumb}>{url ? <img src={url} alt={label} /> : null}</div>
      <div className={styles.pageFooter}>
        <span>{label}</span>
        <Tag color={UPLOAD_STATE_COLORS[page.state]} size="small">
          {UPLOAD_STATE_LABELS[page.state]}
        </Tag>
      </div>
      {page.state === 'failed' ? (
        <div className={styles.pageError}>
          <Typography.Text type="danger" size="small">
            {page.lastError}
          </Typography.Text>
          <Button size="small" icon={<IconRefresh />} onClick={onRetry}>
            重试
          </Button>
        </div>
      ) : null}
    </li>
  );
}

/** `photos`: also offer 拍照上传 (the portal's /scan, used from a phone). */
export function ScanWorkspace({
  initialHomeworkId = null,
  photos = false,
}: { initialHomeworkId?: number | null; photos?: boolean } = {}) {
  const { http, queue, useScanner } = useScanStationServices();
  const homework = useHomeworkOptions(http);
  const { batch, serverCount, refusal, ensureBatch } = useScanBatch();
  const { stats, pages } = useUploadQueue(queue);
  const [wanted, setChoice] = useState<string>(() => {
    const preferred = initialHomeworkId ?? batch?.homeworkId ?? null;
    return preferred ? String(preferred) : QR_OPTION;
  });
  const [settingsOpen, setSettingsOpen] = useState(false);
  const homeworkLabelId = useId();
  const [starting, setStarting] = useState(false);

  // Pages arrive from the scanner one by one; the batch and the running sequence live in refs so that
  // a page is queued for the batch the scan was started for, in order.
  const active = useRef<{ batchId: number; nextSequence: number } | null>(null);
  const enqueueChain = useRef<Promise<void>>(Promise.resolve());
  // Pages the browser refused to store (storage full or denied), kept in memory in scan order until
  // 重新保存 stores them; while any is here, scanning is stopped and cannot start.
  const unsaved = useRef<UploadItem[]>([]);
  const [unsavedCount, setUnsavedCount] = useState(0);
  const stopScanner = useRef<() => void>(() => undefined);
  const holdUnsaved = useCallback((item: UploadItem) => {
    unsaved.current.push(item);
    setUnsavedCount(unsaved.current.length);
    stopScanner.current();
  }, []);
  const onPage = useCallback(
    (page: ScannedPage) => {
      const target = active.current;
      if (!target) return;
      const sequence = target.nextSequence;
      target.nextSequence += 1;
      const item: UploadItem = { ...page, batchId: target.batchId, sequence };
      enqueueChain.current = enqueueChain.current.then(() => {
        // Once one page could not be stored, the pages after it wait with it, so their order holds.
        if (unsaved.current.length > 0) return holdUnsaved(item);
        return queue.enqueue(item).catch(() => holdUnsaved(item));
      });
    },
    [queue, holdUnsaved],
  );
  const saveUnsaved = useCallback(() => {
    enqueueChain.current = enqueueChain.current.then(async () => {
      while (unsaved.current.length > 0) {
        try {
          await queue.enqueue(unsaved.current[0]!);
        } catch {
          break;
        }
        unsaved.current.shift();
      }
      setUnsavedCount(unsaved.current.length);
    });
  }, [queue]);
  // A homework asked for in the address that is not scannable here (a draft, gone) falls back to the QR code.
  const choice =
    wanted !== QR_OPTION && homework.status === 'ready' && !homework.list.some((h) => String(h.id) === wanted)
      ? QR_OPTION
      : wanted;
  const homeworkId = choice === QR_OPTION ? null : Number(choice);
  const scanner = useScanner(onPage, homeworkId);
  useEffect(() => {
    stopScanner.current = scanner.stop;
  });

  const batchPages = useMemo(() => (batch ? pages.filter((page) => page.batchId === batch.batchId) : []), [pages, batch]);
  const shown = useMemo(() => batchPages.slice(-THUMBNAILS_SHOWN).reverse(), [batchPages]);
  const canScan = scanner.status === 'ready' && !starting && unsavedCount === 0;

  const startScan = useCallback(async () => {
    if (!canScan) return;
    setStarting(true);
    try {
      const current = await ensureBatch(homeworkId);
      const stored = queue.getPages().filter((page) => page.batchId === current.batchId);
      if (active.current?.batchId !== current.batchId) {
        active.current = { batchId: current.batchId, nextSequence: Math.max(0, ...stored.map((p) => p.sequence)) + 1 };
        // Pages of earlier batches that reached the server need not stay on this computer.
        void queue.clearUploaded();
      }
      scanner.scan();
    } catch {
      // The batch could not be created: `refusal` keeps why on the page.
    } finally {
      setStarting(false);
    }
  }, [canScan, ensureBatch, homeworkId, queue, scanner]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (settingsOpen || event.repeat || isTypingTarget(event.target)) return;
      const space = event.code === 'Space' || event.key === ' ';
      // Space on a focused button presses that button; only F8 works everywhere.
      if (space && event.target instanceof HTMLElement && event.target.closest('button, [role="button"], a')) return;
      if (event.key === 'F8' || space) {
        event.preventDefault();
        void startScan();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [startScan, settingsOpen]);

  const percent = stats.bytesTotal > 0 ? Math.floor((stats.bytesSent / stats.bytesTotal) * 100) : 0;
  const total = stats.queued + stats.uploading + stats.uploaded + stats.failed;
  const waiting = stats.queued + stats.uploading;

  return (
    <section className={styles.workspace} aria-label="扫描工作区">
      <div className={styles.toolbar}>
        <div className={styles.field}>
          <span id={homeworkLabelId}>选择作业</span>
          <Select
            aria-labelledby={homeworkLabelId}
            value={choice}
            // Semi calls onChange of a controlled Select only once its dropdown has finished closing; a
            // scan started (F8, Space, the button) in that moment took the previous homework, and the
            // simulated feeder drew the previous batch's sheets. onSelect comes with the click.
            onSelect={(value) => setChoice(String(value))}
            onChange={(value) => setChoice(String(value))}
            className={styles.homeworkSelect}
            filter
            loading={homework.status === 'loading'}
            optionList={[
              { value: QR_OPTION, label: '按二维码识别' },
              ...homework.list.map((item) => ({ value: String(item.id), label: `${item.title}（${item.subject.name}）` })),
            ]}
          />
        </div>
        <Button icon={<IconSetting />} onClick={() => setSettingsOpen(true)}>
          扫描设置
        </Button>
        <Button
          theme="solid"
          size="large"
          icon={<IconScan />}
          className={styles.scanButton}
          loading={starting || scanner.status === 'scanning'}
          disabled={scanner.status === 'loading' || scanner.status === 'unavailable' || unsavedCount > 0}
          onClick={() => void startScan()}
        >
          {scanner.status === 'scanning' ? '正在扫描…' : '开始扫描'}
        </Button>
        <Typography.Text type="tertiary" className={styles.shortcuts}>
          快捷键：<kbd>空格</kbd> 或 <kbd>F8</kbd>
        </Typography.Text>
      </div>

      {photos ? (
        <Suspense fallback={null}>
          <PhotoUpload
            homeworkId={homeworkId}
            ensureBatch={ensureBatch}
            nextSequence={(batchId) =>
              Math.max(
                active.current?.batchId === batchId ? active.current.nextSequence - 1 : 0,
                ...queue
                  .getPages()
                  .filter((p) => p.batchId === batchId)
                  .map((p) => p.sequence),
              ) + 1
            }
          />
        </Suspense>
      ) : null}
      {refusal && refusal.homeworkId === homeworkId ? (
        <Banner
          type="danger"
          closeIcon={null}
          description={
            <div className={styles.installers}>
              <strong>{refusal.forbidden ? '很抱歉，您暂无该操作权限' : `无法开始扫描：${refusal.message}`}</strong>
              <span>
                {refusal.forbidden
                  ? '您不能扫描这份作业的答题卡：只有布置作业的老师、学校管理员、这份作业的阅卷老师，以及作业所在班级的年级主任、班主任和本学科任课老师可以扫描。请选择其他作业，或选择「按二维码识别」。'
                  : '扫描没有开始，也没有上传任何页面。请稍后再按「开始扫描」。'}
              </span>
            </div>
          }
        />
      ) : null}
      {homework.status === 'failed' ? (
        <Banner type="warning" closeIcon={null} description="作业列表暂时无法读取，可先选择「按二维码识别」进行扫描。" />
      ) : null}
      {!scanner.scannerChosen && !scanner.problem ? (
        <Banner type="info" closeIcon={null} description={CHOOSE_SCANNER_HINT} />
      ) : null}
      {scanner.simulated && scanner.problem?.kind !== 'noService' ? (
        <Banner
          type="info"
          closeIcon={null}
          description="当前使用模拟扫描仪：扫描出的是演示页面。安装扫描服务程序后刷新本页，即可在「扫描设置」中选择真实扫描仪。"
        />
      ) : null}
      {scanner.serviceMissing || scanner.problem?.kind === 'noService' ? <ServiceInstallers /> : null}
      {unsavedCount > 0 ? (
        <Banner
          type="danger"
          closeIcon={null}
          title="这台电脑无法保存扫描的页面，扫描已停止"
          description={
            <div className={styles.installers}>
              <span>
                浏览器的存储空间已满或被拒绝使用。还有 {unsavedCount} 页尚未保存，它们仍保留在本页中：请不要关闭或刷新本页。
                请释放磁盘空间（或等已扫描的页面上传完成），然后按「重新保存」，再继续扫描。
              </span>
              <span>
                <Button type="danger" theme="solid" onClick={saveUnsaved}>
                  重新保存
                </Button>
              </span>
            </div>
          }
        />
      ) : null}
      {scanner.problem ? (
        <Banner
          type={scanner.problem.kind === 'noService' ? 'warning' : 'danger'}
          closeIcon={null}
          title={scanner.problem.message}
          description={PROBLEM_GUIDANCE[scanner.problem.kind]}
        />
      ) : null}

      <div className={styles.counters}>
        <div role="status" aria-label="本批次页数" className={styles.bigCounter}>
          本批次已扫描 <strong>{batchPages.length}</strong> 页
        </div>
        {serverCount !== null ? <Typography.Text type="secondary">服务器已保存本批次 {serverCount} 页</Typography.Text> : null}
        <Typography.Text type="secondary" aria-label="上传统计">
          排队中 {stats.queued} · 上传中 {stats.uploading} · 已上传 {stats.uploaded} · 失败 {stats.failed}
        </Typography.Text>
        {stats.failed > 0 ? (
          <Button size="small" type="danger" icon={<IconRefresh />} onClick={() => queue.retryFailed()}>
            重试失败的页面
          </Button>
        ) : null}
      </div>
      <ProgressBar percent={percent} showInfo size="large" aria-label="上传进度" />
      {waiting > 0 && stats.lastError ? (
        <Typography.Text type="warning">
          上传暂未成功（{stats.lastError}），页面已保存在这台电脑上，网络或服务器恢复后会自动继续上传。
        </Typography.Text>
      ) : null}
      {total > 0 && waiting === 0 && stats.failed === 0 ? <Typography.Text type="success">全部页面已上传</Typography.Text> : null}

      {shown.length > 0 ? (
        <ul className={styles.pages} aria-label="最新扫描的页面">
          {shown.map((page) => (
            <PageCard key={page.imageId} page={page} onRetry={() => queue.retryFailed()} />
          ))}
        </ul>
      ) : (
        <Typography.Paragraph type="tertiary" className={styles.empty}>
          把答题卡正面朝下放入进纸器，选择作业后按「开始扫描」。
        </Typography.Paragraph>
      )}

      {scanner.renderSettings({ visible: settingsOpen, onClose: () => setSettingsOpen(false) })}
    </section>
  );
}
