import { LocaleProvider } from '@douyinfe/semi-ui-19';
import zhCN from '@douyinfe/semi-ui-19/lib/es/locale/source/zh_CN';
import { useEffect, type ReactNode } from 'react';
import { watchChineseAriaLabels } from './chinese-aria-labels';
import './global.css';

/**
 * Providers every entry wraps its app in: Semi UI's Chinese locale, Chinese accessible names where Semi
 * hard-codes English ones (also in dialogs opened with Modal.confirm, which render outside this tree),
 * and our global styles.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  useEffect(() => watchChineseAriaLabels(document.body), []);
  return <LocaleProvider locale={zhCN}>{children}</LocaleProvider>;
}
