/**
 * /printgrade: a class's 成绩单 to fill in by hand: one row per student, an empty score column per
 * question and a total column. With ?homeworkId= the title and question count come from the homework;
 * ?classId= preselects the class (otherwise the homework's first class, or the school year's first).
 */
import { InputNumber, Radio, RadioGroup, Spin } from '@douyinfe/semi-ui-19';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PrintSheet, type PrintPaperSize } from '../../../shared/ui/print-sheet';
import { ClassSelect, useClasses } from '../class-select';
import { fetchHomework } from '../papers-api';
import { usePapersServices } from '../papers-services';
import { useClassStudents } from '../use-class-students';
import { useRemote } from '../../../shared/ui/use-remote';
import { useBack } from '../use-back';
import styles from './print-pages.module.css';

export const DEFAULT_GRADE_COLUMNS = 10;
export const MAX_GRADE_COLUMNS = 40;

function positiveInt(value: string | null): number | undefined {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

export function PrintGradePage() {
  const back = useBack();
  const { http } = usePapersServices();
  const [params] = useSearchParams();
  const homeworkId = positiveInt(params.get('homeworkId'));
  const [chosenClassId, setClassId] = useState<number | undefined>(positiveInt(params.get('classId')));
  const [columnsInput, setColumnsInput] = useState<number>(DEFAULT_GRADE_COLUMNS);
  const [paperSize, setPaperSize] = useState<PrintPaperSize>('A4');
  const homework = useRemote(homeworkId ? `homework:${homeworkId}` : null, () => fetchHomework(http, homeworkId ?? 0));
  const { classes } = useClasses();
  // Without a choice: the homework's first class, else the school year's first.
  const classId = chosenClassId ?? homework.data?.classes[0]?.id ?? (homeworkId ? undefined : classes[0]?.id);
  const { students, loading } = useClassStudents(classId);

  const columns = Math.min(MAX_GRADE_COLUMNS, homework.data?.questionCount ?? columnsInput);
  const className = [...classes, ...(homework.data?.classes ?? [])].find((c) => c.id === classId)?.name ?? '';
  const title = `${homework.data?.title ?? className} 成绩单`;

  return (
    <PrintSheet
      onBack={back}
      title="打印成绩"
      paperSize={paperSize}
      printable={students.length > 0}
      toolbar={
        <>
          <ClassSelect value={classId} onChange={setClassId} />
          {homework.data ? null : (
            <InputNumber
              aria-label="小题数"
              prefix="小题数"
              min={1}
              max={MAX_GRADE_COLUMNS}
              value={columnsInput}
              style={{ width: 140 }}
              onChange={(value) => {
                const n = Number(value);
                if (Number.isInteger(n) && n >= 1 && n <= MAX_GRADE_COLUMNS) setColumnsInput(n);
              }}
            />
          )}
          <RadioGroup
            type="button"
            aria-label="纸张大小"
            value={paperSize}
            onChange={(event) => setPaperSize(event.target.value as PrintPaperSize)}
          >
            <Radio value="A4">A4</Radio>
            <Radio value="A3">A3</Radio>
          </RadioGroup>
        </>
      }
    >
      {loading || homework.loading ? (
        <Spin />
      ) : students.length === 0 ? (
        <p className={styles.placeholder}>{classId ? '该班级暂无学生，请先导入学生名单' : '请选择班级'}</p>
      ) : (
        <>
          <h1 className={styles.sheetTitle}>{title}</h1>
          <p className={styles.sheetMeta}>
            {`班级：${className}\u3000\u3000人数：${students.length}\u3000\u3000日期：＿＿＿＿＿＿`}
          </p>
          <table className={styles.gradeTable}>
            <thead>
              <tr>
                <th scope="col">序号</th>
                <th scope="col">学号</th>
                <th scope="col">姓名</th>
                {Array.from({ length: columns }, (_, i) => (
                  <th scope="col" key={i}>
                    {i + 1}
                  </th>
                ))}
                <th scope="col">总分</th>
              </tr>
            </thead>
            <tbody>
              {students.map((student, i) => (
                <tr key={student.id}>
                  <td>{i + 1}</td>
                  <td>{student.code}</td>
                  <td>{student.name}</td>
                  {Array.from({ length: columns }, (_, j) => (
                    <td key={j} />
                  ))}
                  <td />
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </PrintSheet>
  );
}
