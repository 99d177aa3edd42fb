import { LocaleProvider } from '@douyinfe/semi-ui-19';
import zhCN from '@douyinfe/semi-ui-19/lib/es/locale/source/zh_CN';
import type { ReactNode } from 'react';
import './global.css';

/** Providers every entry wraps its app in: Semi UI's Chinese locale and our global styles. */
export function AppProviders({ children }: { children: ReactNode }) {
  return <LocaleProvider locale={zhCN}>{children}</LocaleProvider>;
}
