import { Badge, Typography } from '@douyinfe/semi-ui-19';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import type { RealtimeSocket } from '../../shared/adapters/realtime-socket';
import styles from './large-screen.module.css';
import { useConnectionStatus, type ConnectionStatus } from './use-connection-status';

const STATUS_TEXT: Record<ConnectionStatus, string> = {
  connecting: '正在连接服务器…',
  connected: '实时数据已连接',
  disconnected: '与服务器的连接已断开，正在重连…',
};

function useClock(): string {
  const [now, setNow] = useState(() => dayjs());
  useEffect(() => {
    const timer = setInterval(() => setNow(dayjs()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now.format('YYYY-MM-DD HH:mm:ss');
}

/** The wall display. Live progress panels subscribe to the socket it is given. */
export function LargeScreenApp({ socket }: { socket: RealtimeSocket }) {
  const status = useConnectionStatus(socket);
  const clock = useClock();
  return (
    <main className={styles.screen}>
      <header className={styles.header}>
        <Typography.Title heading={2} className={styles.title}>
          智慧作业 · 大屏
        </Typography.Title>
        <span className={styles.clock}>{clock}</span>
      </header>
      <p className={styles.status} role="status">
        <Badge dot type={status === 'connected' ? 'success' : 'warning'} /> {STATUS_TEXT[status]}
      </p>
    </main>
  );
}
