import { IconChevronDown } from '@douyinfe/semi-icons';
import { lazy, Suspense, useState } from 'react';
import styles from './school-year-picker.module.css';
import { NO_SCHOOL_YEAR, useCurrentSchoolYear } from './use-current-school-year';

const loadSelect = () => import('./school-year-select');
const SchoolYearSelect = lazy(() => loadSelect().then((module) => ({ default: module.SchoolYearSelect })));
const preload = () => void loadSelect().catch(() => undefined);

/**
 * The top bar's school year (选择学年). Semi's Select with its Input, Tag, OverflowList and Typography is
 * about 40 KiB gz that every logged-in page would load with the top bar (tests/lint/bundle-budget.test.ts),
 * for a dropdown most visits never open: the bar shows the current school year in a closed box of the
 * same look, and swaps in the real dropdown (school-year-select.tsx) when the teacher reaches for it: its
 * code is fetched on a pointer over or focus on the box, and a click opens it as soon as it is there.
 */
export function SchoolYearPicker() {
  const { schoolYear } = useCurrentSchoolYear();
  const [wanted, setWanted] = useState<'hover' | 'open' | null>(null);

  const closed = (
    <button
      type="button"
      role="combobox"
      aria-expanded={false}
      aria-haspopup="listbox"
      className={styles.closed}
      onPointerEnter={preload}
      onFocus={preload}
      onClick={() => setWanted('open')}
    >
      <span className={schoolYear ? styles.value : styles.placeholder}>{schoolYear?.name ?? NO_SCHOOL_YEAR}</span>
      <IconChevronDown className={styles.arrow} />
    </button>
  );

  return (
    <div role="group" aria-label="选择学年">
      {wanted ? (
        <Suspense fallback={closed}>
          <SchoolYearSelect open={wanted === 'open'} />
        </Suspense>
      ) : (
        closed
      )}
    </div>
  );
}
