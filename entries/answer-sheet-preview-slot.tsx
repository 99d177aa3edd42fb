/**
 * The answer-sheet feature's preview composed for the papers feature's 打印答题卡 dialog: loads what the
 * homework's sheet prints and its stored template, and shows one page at a time with page tabs, so the
 * teacher sees exactly the sheet the scan station will read before printing 40 of them.
 */
import { Banner, Spin, Tabs, TabPane } from '@douyinfe/semi-ui-19';
import { useEffect, useState } from 'react';
import { AnswerSheetPreview } from '../src/features/answer-sheet/answer-sheet-preview';
import type { HttpClient } from '../src/shared/adapters/http-client';
import {
  answerSheetSpecSchema,
  answerSheetTemplateSchema,
  type AnswerSheetSpec,
  type AnswerSheetTemplate,
} from '../src/shared/contract/answer-sheet';

type Loaded = { spec: AnswerSheetSpec; template: AnswerSheetTemplate };

export function AnswerSheetPreviewSlot({ http, homeworkId }: { http: HttpClient; homeworkId: number }) {
  const [state, setState] = useState<{ id: number; sheet: Loaded | null; failed: boolean } | null>(null);
  useEffect(() => {
    let cancelled = false;
    Promise.all([
      http.get(`/api/homework/${homeworkId}/answer-sheet/spec`, undefined, { schema: answerSheetSpecSchema, silent: true }),
      http.get(`/api/homework/${homeworkId}/answer-sheet/template`, undefined, {
        schema: answerSheetTemplateSchema,
        silent: true,
      }),
    ]).then(
      ([spec, template]) => !cancelled && setState({ id: homeworkId, sheet: { spec, template }, failed: false }),
      () => !cancelled && setState({ id: homeworkId, sheet: null, failed: true }),
    );
    return () => {
      cancelled = true;
    };
  }, [http, homeworkId]);

  if (!state || state.id !== homeworkId) return <Spin tip="正在生成答题卡预览…" />;
  if (!state.sheet) return <Banner type="warning" closeIcon={null} description="答题卡预览暂时无法显示，仍可直接下载 PDF。" />;
  const { spec, template } = state.sheet;
  const pages = template.pages.map((page, index) => (
    <AnswerSheetPreview key={page.page} template={template} spec={spec} pageIndex={index} />
  ));
  if (pages.length === 1) return <div aria-label="答题卡预览">{pages[0]}</div>;
  return (
    <div aria-label="答题卡预览">
      <Tabs type="button" size="small">
        {pages.map((preview, index) => (
          <TabPane key={index} itemKey={String(index)} tab={`第 ${index + 1} 页`}>
            {preview}
          </TabPane>
        ))}
      </Tabs>
    </div>
  );
}
