/**
 * /printing?paperId= (the paper) and /printanswer?paperId= (its answers and analyses): the saved paper
 * in the print frame at its paper size, A3 in two columns. ?homeworkId= works too and prints the
 * homework's paper.
 */
import { Empty, Spin } from '@douyinfe/semi-ui-19';
import { useSearchParams } from 'react-router-dom';
import { PrintSheet } from '../../../shared/ui/print-sheet';
import { fetchHomework, fetchPaper } from '../papers-api';
import { usePapersServices } from '../papers-services';
import { PaperView, paperViewFromDetail } from '../paper-view';
import { useBack } from '../use-back';
import { useRemote } from '../../../shared/ui/use-remote';

function positiveInt(value: string | null): number | undefined {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

export function PrintPaperPage({ answers = false }: { answers?: boolean }) {
  const back = useBack();
  const { http } = usePapersServices();
  const [params] = useSearchParams();
  const paperId = positiveInt(params.get('paperId'));
  const homeworkId = positiveInt(params.get('homeworkId'));
  const key = paperId ? `paper:${paperId}` : homeworkId ? `homework-paper:${homeworkId}` : null;
  const paper = useRemote(key, async () => fetchPaper(http, paperId ?? (await fetchHomework(http, homeworkId ?? 0)).paperId));
  const pageTitle = answers ? '打印答案' : '打印试卷';

  if (!key || (paper.error && !paper.loading)) {
    return (
      <PrintSheet title={pageTitle} printable={false} onBack={back}>
        <Empty title="未找到试卷" description="请从作业列表选择要打印的试卷" />
      </PrintSheet>
    );
  }
  if (!paper.data) {
    return (
      <PrintSheet title={pageTitle} printable={false} onBack={back}>
        <Spin />
      </PrintSheet>
    );
  }
  return (
    <PrintSheet
      onBack={back}
      title={`${pageTitle}：${paper.data.title}`}
      paperSize={paper.data.paperSize}
      columns={paper.data.paperSize === 'A3' ? 2 : 1}
    >
      <PaperView model={paperViewFromDetail(paper.data)} answers={answers} />
    </PrintSheet>
  );
}
