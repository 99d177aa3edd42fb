/**
 * A wall screen that holds no display token shows a pairing code and its QR code, with the expiry, and
 * waits: it asks the server every few seconds whether a teacher typed the code, and takes the display
 * token when one did. An expired code is replaced by a new one; a network cut is retried. No clicks.
 */
import { useEffect, useState } from 'react';
import type { PairingCollectResult, ScreenPairing } from '../../shared/contract/large-screen';
import type { RealtimeSocket } from '../../shared/adapters/realtime-socket';
import styles from './large-screen.module.css';
import { clockText } from './panel-data';
import { useClock } from './use-clock';
import { useConnectionStatus } from './use-connection-status';

/** How often the screen asks whether it was paired (ms). */
export const COLLECT_INTERVAL_MS = 3_000;
const RETRY_MS = 5_000;

export type PairingClient = {
  requestPairing: () => Promise<ScreenPairing>;
  collectPairing: (secret: string) => Promise<PairingCollectResult>;
};

export function PairingView({
  client,
  socket,
  onPaired,
}: {
  client: PairingClient;
  socket: RealtimeSocket;
  onPaired: (token: string) => void;
}) {
  const [pairing, setPairing] = useState<ScreenPairing | null>(null);
  const [offline, setOffline] = useState(false);
  const [qr, setQr] = useState<string | null>(null);
  const status = useConnectionStatus(socket);
  const now = useClock();

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let current: ScreenPairing | null = null;
    const later = (ms: number) => {
      if (!stopped) timer = setTimeout(() => void step(), ms);
    };
    async function step() {
      try {
        if (!current) {
          current = await client.requestPairing();
          if (stopped) return;
          setPairing(current);
        }
        const result = await client.collectPairing(current.secret);
        if (stopped) return;
        setOffline(false);
        if (result.status === 'paired' && result.token) return onPaired(result.token);
        if (result.status === 'expired') current = null;
        later(result.status === 'expired' ? 0 : COLLECT_INTERVAL_MS);
      } catch {
        if (stopped) return;
        setOffline(true);
        later(RETRY_MS);
      }
    }
    void step();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [client, onPaired]);

  const link = pairing ? `${window.location.origin}/largescreen?pair=${pairing.code}` : null;
  useEffect(() => {
    if (!link) return;
    let cancelled = false;
    void import('qrcode').then(({ toDataURL }) =>
      toDataURL(link, { margin: 1, width: 360 }).then((url) => {
        if (!cancelled) setQr(url);
      }),
    );
    return () => {
      cancelled = true;
    };
  }, [link]);

  const left = pairing ? Math.max(0, Math.round((Date.parse(pairing.expiresAt) - now.getTime()) / 1000)) : 0;
  return (
    <main className={`${styles.screen} ${styles.kiosk}`}>
      <header className={styles.header}>
        <h1 className={styles.title}>智慧作业 · 大屏</h1>
        <span className={styles.clock}>{clockText(now)}</span>
      </header>
      <div className={styles.pairing}>
        <div>
          <h2 className={styles.pairingHeading}>配对这块大屏</h2>
          <p className={styles.pairingText}>
            请学校管理员或年级主任登录智慧作业，打开 学校设置 →
            大屏管理（或扫描右侧二维码），输入下面的配对码，并选择这块大屏显示的内容。
          </p>
          <p className={styles.code} data-testid="pairing-code" aria-label="配对码">
            {pairing ? pairing.code : '······'}
          </p>
          <p className={styles.pairingText}>
            {pairing
              ? `配对码 ${Math.floor(left / 60)} 分 ${String(left % 60).padStart(2, '0')} 秒后失效，失效后自动更换`
              : '正在获取配对码…'}
          </p>
          {offline ? (
            <p className={styles.banner} role="alert">
              无法连接服务器，正在重试…
            </p>
          ) : null}
        </div>
        {qr ? <img className={styles.qr} src={qr} alt="配对二维码" /> : <div className={styles.qr} />}
      </div>
      <footer className={styles.footer}>
        <span role="status" className={styles.status}>
          <i className={status === 'connected' ? styles.dotOk : styles.dotWarn} />
          {status === 'connected'
            ? '实时数据已连接'
            : status === 'connecting'
              ? '正在连接服务器…'
              : '与服务器的连接已断开，正在重连…'}
        </span>
      </footer>
    </main>
  );
}
