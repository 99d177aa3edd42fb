/**
 * Semi's DatePicker as a default export, for lazy-date-picker.tsx to load on demand, with the Chinese
 * locale's date-fns part (month and weekday names), which the build leaves out of the locale every page
 * loads (vite.config.ts, slimSemi).
 */
import { DatePicker, LocaleProvider } from '@douyinfe/semi-ui-19';
import type { DatePickerProps } from '@douyinfe/semi-ui-19/lib/es/datePicker';
import zhCN from '@douyinfe/semi-ui-19/lib/es/locale/source/zh_CN';
import { zhCN as dateFnsZhCN } from 'date-fns/locale';

const locale = { ...zhCN, dateFnsLocale: dateFnsZhCN };

export default function ChineseDatePicker(props: DatePickerProps) {
  return (
    <LocaleProvider locale={locale}>
      <DatePicker {...props} />
    </LocaleProvider>
  );
}
