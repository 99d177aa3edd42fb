// Benchmark: print a class of answer sheets (答题卡). 40 per-student A4 sheets of a paper with 20
// objective and 3 subjective questions; prints the median render time of a few runs and the PDF size.
import { renderAnswerSheetPdf } from '../../server/services/answer-sheet/answer-sheet-pdf';
import { answerSheetSpecSchema } from '../../src/shared/contract/answer-sheet';
import { layoutAnswerSheet } from '../../src/shared/lib/answer-sheet-layout';

const RUNS = 5;
const STUDENTS = 40;

const spec = answerSheetSpecSchema.parse({
  homeworkId: 1001,
  title: '七年级数学第三单元作业',
  subjectName: '数学',
  paperSize: 'A4',
  className: '七年级(1)班',
  questions: [
    ...Array.from({ length: 12 }, (_, i) => ({ no: i + 1, type: 'single', score: 3 })),
    ...Array.from({ length: 4 }, (_, i) => ({ no: 13 + i, type: 'multiple', score: 4 })),
    ...Array.from({ length: 4 }, (_, i) => ({ no: 17 + i, type: 'judge', score: 2 })),
    { no: 21, type: 'subjective', score: 8 },
    { no: 22, type: 'subjective', score: 10 },
    { no: 23, type: 'subjective', score: 12 },
  ],
});
const sheets = Array.from({ length: STUDENTS }, (_, i) => ({
  student: { name: `学生${i + 1}`, code: `2024${String(i + 1).padStart(3, '0')}` },
}));

const layoutStarted = performance.now();
const template = layoutAnswerSheet(spec);
const layoutMs = performance.now() - layoutStarted;

const firstStarted = performance.now();
let pdf = await renderAnswerSheetPdf(spec, template, sheets);
const firstMs = performance.now() - firstStarted;

const times: number[] = [];
for (let run = 0; run < RUNS; run += 1) {
  const started = performance.now();
  pdf = await renderAnswerSheetPdf(spec, template, sheets);
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)] ?? NaN;

console.log(
  `answer-sheet: ${STUDENTS} per-student A4 sheets, 20 objective + 3 subjective, ${template.pages.length} page(s) each`,
);
console.log(`answer-sheet: layout ${layoutMs.toFixed(1)} ms; first render (font load) ${firstMs.toFixed(0)} ms`);
console.log(
  `answer-sheet: render median ${median.toFixed(0)} ms over ${RUNS} runs (min ${times[0]?.toFixed(0)}, max ${times.at(-1)?.toFixed(0)})`,
);
console.log(
  `answer-sheet: PDF ${(pdf.length / 1024).toFixed(0)} KiB (${(pdf.length / 1024 / STUDENTS).toFixed(1)} KiB per sheet)`,
);
