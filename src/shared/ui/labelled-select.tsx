/**
 * Semi's Select ignores `aria-label` (it writes its own), but honours `aria-labelledby`: this wrapper
 * gives every picker an accessible name from a visually hidden label. Without the
 * closing animation, so a choice applies at once (a controlled Select reports it when the animation ends).
 */
import { Select } from '@douyinfe/semi-ui-19';
import { useId, type ComponentProps } from 'react';
import styles from './labelled-select.module.css';

export function LabelledSelect({ label, ...props }: ComponentProps<typeof Select> & { label: string }) {
  const id = useId();
  return (
    <>
      <span id={id} className={styles.visuallyHidden}>
        {label}
      </span>
      <Select motion={false} {...props} aria-labelledby={id} />
    </>
  );
}
