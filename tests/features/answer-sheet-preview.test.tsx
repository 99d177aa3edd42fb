import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AnswerSheetPreview } from '../../src/features/answer-sheet/answer-sheet-preview';
import { answerSheetSpecSchema } from '../../src/shared/contract/answer-sheet';
import { layoutAnswerSheet } from '../../src/shared/lib/answer-sheet-layout';

const spec = answerSheetSpecSchema.parse({
  homeworkId: 9,
  title: '九年级化学周测',
  subjectName: '化学',
  paperSize: 'A4',
  className: '九年级(2)班',
  questions: [
    ...Array.from({ length: 8 }, (_, i) => ({ no: i + 1, type: 'single', score: 3 })),
    { no: 9, type: 'judge', score: 2 },
    { no: 10, type: 'blank', score: 4, blankCount: 2 },
    ...Array.from({ length: 4 }, (_, i) => ({ no: 11 + i, type: 'subjective', score: 16 })),
  ],
});
const template = layoutAnswerSheet(spec);

describe('AnswerSheetPreview', () => {
  it('draws the four fiducials, the QR and one bubble per option of the page', () => {
    render(<AnswerSheetPreview template={template} spec={spec} />);
    const sheet = screen.getByRole('img', { name: `答题卡预览 第 1 页（共 ${template.pages.length} 页）` });
    expect(sheet).toHaveAttribute('viewBox', '0 0 210 297');
    expect(within(sheet).getAllByRole('img', { name: /^定位点/ })).toHaveLength(4);
    expect(within(sheet).getByRole('img', { name: '定位点（右下）' })).toHaveAttribute('x', '195');
    expect(within(sheet).getByRole('img', { name: '二维码' })).toBeInTheDocument();
    const options = template.pages[0]!.objective.flatMap((q) => q.options);
    expect(within(sheet).getAllByRole('img', { name: /^第 \d+ 题 选项/ })).toHaveLength(options.length);
    const bubble = within(sheet).getByRole('img', { name: '第 9 题 选项 F' });
    const f = template.pages[0]!.objective.find((q) => q.questionNo === 9)!.options[1]!;
    expect(Number(bubble.getAttribute('cx'))).toBeCloseTo(f.xMm + f.wMm / 2);
    expect(Number(bubble.getAttribute('cy'))).toBeCloseTo(f.yMm + f.hMm / 2);
  });

  it('prints the header, the option letters and the region labels in Chinese', () => {
    render(<AnswerSheetPreview template={template} spec={spec} />);
    expect(screen.getByText('九年级化学周测')).toBeInTheDocument();
    expect(screen.getByText(/^学科：化学\s+班级：九年级\(2\)班$/)).toBeInTheDocument();
    expect(screen.getByText('姓名')).toBeInTheDocument();
    expect(screen.getAllByText('A')).toHaveLength(8);
    expect(screen.getByText('T')).toBeInTheDocument();
    expect(screen.getByText('10．（4分）')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: '第 10 题 作答区' })).toBeInTheDocument();
  });

  it("shows the student's name and code on a per-student preview", () => {
    const { rerender } = render(<AnswerSheetPreview template={template} spec={spec} />);
    expect(screen.queryByText('李四')).not.toBeInTheDocument();
    rerender(<AnswerSheetPreview template={template} spec={spec} student={{ name: '李四', code: '20230917' }} />);
    expect(screen.getByText('李四')).toBeInTheDocument();
    expect(screen.getByText('20230917')).toBeInTheDocument();
  });

  it('draws a later page with its own fiducials and page number', () => {
    expect(template.pages.length).toBeGreaterThan(1);
    render(<AnswerSheetPreview template={template} spec={spec} pageIndex={1} />);
    const sheet = screen.getByRole('img', { name: /第 2 页/ });
    expect(within(sheet).getAllByRole('img', { name: /^定位点/ })).toHaveLength(4);
    expect(within(sheet).queryAllByRole('img', { name: /选项/ })).toHaveLength(0);
    expect(screen.getByText(`第 2 页（共 ${template.pages.length} 页）`)).toBeInTheDocument();
  });

  it('draws the geometry alone when no spec is given', () => {
    render(<AnswerSheetPreview template={template} />);
    expect(screen.getAllByRole('img', { name: /^定位点/ })).toHaveLength(4);
    expect(screen.queryByText('姓名')).not.toBeInTheDocument();
  });
});
