/**
 * Semi's DatePicker (about 50 KiB gz with its calendar panels and date library) fetched when a page that
 * shows one renders it, not with the page: a filter bar or a form is usable at once, and the date field
 * becomes live a moment later. Until then a disabled field of the same size holds its place.
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
