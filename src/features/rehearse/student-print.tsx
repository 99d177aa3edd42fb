/** A student's wrong-question book as a printable page (/rehearse?print=1&studentId=…), loaded when opened. */
import { Spin } from '@douyinfe/semi-ui-19';
import { MASTERY_FILTER_LABELS, type RehearseOptions } from '../../shared/contract/rehearse';
import { PrintSheet } from '../../shared/ui/print-sheet';
import { BookEntryCard } from './book-entry-card';
import { type BookParams, useStudentBook } from './rehearse-api';
import styles from './rehearse.module.css';
import { useFilters } from './use-rehearse-filters';

/** A student's book as a printable page (with answers and analysis): 打印, or 另存为 PDF in the print dialog. */
export function StudentPrint({ options }: { options: RehearseOptions }) {
  const { get, num, set, bookFilter } = useFilters();
  const params: BookParams = { studentId: num('studentId'), ...bookFilter() };
  const book = useStudentBook(params, true);
  if (!book.data) return <Spin size="large" wrapperClassName={styles.state} spinning={book.isLoading} />;
  const { student, entries } = book.data;
  const subject = options.subjects.find((s) => s.id === num('subjectId'))?.name ?? '全部学科';
  return (
    <PrintSheet title={`${student.name}的错题本`} onBack={() => set({ print: null })}>
      <header className={styles.printHead}>
        <h1>{student.name}的错题本</h1>
        <p>
          {student.className} · 学号 {student.code} · {subject} · 共 {entries.length} 题（
          {MASTERY_FILTER_LABELS[(get('mastery') as 'open' | 'mastered' | 'all' | undefined) ?? 'open']}）
        </p>
      </header>
      <ol className={styles.entries}>
        {entries.map((entry, index) => (
          <li key={entry.id} className={styles.printEntry}>
            <BookEntryCard entry={entry} index={index + 1} causes={[]} printing />
          </li>
        ))}
      </ol>
    </PrintSheet>
  );
}
