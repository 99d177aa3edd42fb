/**
 * Semi's DatePicker (about 50 KiB gz with its calendar panels and date library) fetched when a page that
 * shows one renders it, not with the page: a filter bar or a form is usable at once, and the date field
 * becomes live a moment later. Until then a disabled field of the same size holds its place.
 *
 * DateRangeFilter is the 时间范围 filter of the analysis pages and 错题重练, kept here rather than in a file
 * of its own so that those pages load no extra chunk for it.
 */
import { Input } from '@douyinfe/semi-ui-19';
import type { DatePickerProps } from '@douyinfe/semi-ui-19/lib/es/datePicker';
import { lazy, Suspense } from 'react';

// Through a module of ours that imports it as every other Semi component is imported, so that the build
// splits it as it does them (a deep import of Semi's file drew shared code into its chunk).
const DatePicker = lazy(() => import('./date-picker-chunk'));

function placeholderOf(placeholder: DatePickerProps['placeholder']): string {
  if (Array.isArray(placeholder)) return placeholder.join(' ~ ');
  return placeholder ?? '';
}

/** DatePicker's own props; an accessible name passes through to it as to Semi's. */
export function LazyDatePicker(props: DatePickerProps & { 'aria-label'?: string }) {
  return (
    <Suspense
      fallback={
        <Input
          disabled
          aria-label={props['aria-label']}
          placeholder={placeholderOf(props.placeholder)}
          style={props.style}
          className={props.className}
        />
      }
    >
      <DatePicker {...props} />
    </Suspense>
  );
}

const isoDay = (value: Date) =>
  `${value.getFullYear()}-${String(value.getMonth() + 1).padStart(2, '0')}-${String(value.getDate()).padStart(2, '0')}`;

/**
 * A 时间范围 filter: the date-range picker on days written as ISO dates (YYYY-MM-DD, as the URL and the API
 * carry them). Both ends or neither: clearing the picker clears both.
 */
export function DateRangeFilter({
  from,
  to,
  onChange,
  className,
}: {
  from: string | null | undefined;
  to: string | null | undefined;
  onChange: (from: string | null, to: string | null) => void;
  className?: string;
}) {
  return (
    <LazyDatePicker
      type="dateRange"
      aria-label="时间范围"
      placeholder={['开始日期', '结束日期']}
      className={className}
      value={from && to ? [from, to] : undefined}
      onChange={(value) => {
        const [start, end] = Array.isArray(value) ? (value as Date[]) : [];
        onChange(start ? isoDay(new Date(start)) : null, end ? isoDay(new Date(end)) : null);
      }}
    />
  );
}
