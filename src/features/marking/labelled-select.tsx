/**
 * Semi's Select ignores `aria-label` but honours `aria-labelledby`: every picker of the marking pages gets
 * its accessible name from a visually hidden label. Without the closing animation, so a choice applies at
 * once. (The papers feature has the same wrapper; features may not import each other.)
 */
import { Select } from '@douyinfe/semi-ui-19';
import { useId, type ComponentProps } from 'react';
import styles from './marking.module.css';

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
