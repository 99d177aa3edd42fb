import { Typography } from '@douyinfe/semi-ui-19';
import type { ReactNode } from 'react';
import styles from './page-frame.module.css';

/** A page's white sheet with its title, as portal pages use it. */
export function PageFrame({ title, children, narrow = false }: { title: string; children: ReactNode; narrow?: boolean }) {
  return (
    <main className={narrow ? `${styles.frame} ${styles.narrow}` : styles.frame}>
      <Typography.Title heading={3} className={styles.title}>
        {title}
      </Typography.Title>
      {children}
    </main>
  );
}
