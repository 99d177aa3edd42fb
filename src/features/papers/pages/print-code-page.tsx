/**
 * /printcode: one QR code per student of a class, each with the student's name and code, as cut-out
 * labels. The QR carries the student code only.
 */
import { Spin } from '@douyinfe/semi-ui-19';
import { useMemo, useState } from 'react';
import { sheetQrPath } from '../../../shared/lib/answer-sheet-qr';
import { PrintSheet } from '../../../shared/ui/print-sheet';
import { ClassSelect, useClasses } from '../class-select';
import { useClassStudents } from '../use-class-students';
import { useBack } from '../use-back';
import styles from './print-pages.module.css';

export const STUDENT_QR_SIZE_MM = 28;

export function PrintCodePage() {
  const back = useBack();
  const [chosenClassId, setClassId] = useState<number | undefined>();
  const { classes } = useClasses();
  const classId = chosenClassId ?? classes[0]?.id;
  const { students, loading } = useClassStudents(classId);
  return (
    <PrintSheet
      onBack={back}
      title="打印二维码"
      printable={students.length > 0}
      toolbar={<ClassSelect value={classId} onChange={setClassId} />}
    >
      {loading ? (
        <Spin />
      ) : students.length === 0 ? (
        <p className={styles.placeholder}>{classId ? '该班级暂无学生，请先导入学生名单' : '请选择班级'}</p>
      ) : (
        <div className={styles.qrGrid}>
          {students.map((student) => (
            <StudentQr key={student.id} name={student.name} code={student.code} />
          ))}
        </div>
      )}
    </PrintSheet>
  );
}

function StudentQr({ name, code }: { name: string; code: string }) {
  const qr = useMemo(() => sheetQrPath(code), [code]);
  const quiet = 4;
  const side = qr.modules + quiet * 2;
  return (
    <figure className={styles.label}>
      <svg
        viewBox={`${-quiet} ${-quiet} ${side} ${side}`}
        width={`${STUDENT_QR_SIZE_MM}mm`}
        height={`${STUDENT_QR_SIZE_MM}mm`}
        role="img"
        aria-label={`${name}的二维码`}
        shapeRendering="crispEdges"
      >
        <path d={qr.path} fill="#000" />
      </svg>
      <figcaption>
        <strong>{name}</strong>
        <br />
        {code}
      </figcaption>
    </figure>
  );
}
