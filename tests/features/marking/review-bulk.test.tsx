import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ReviewBulkResolution, ReviewItem } from '../../../src/shared/contract/marking';
import { homework } from '../papers/papers-test-kit';
import { fakeHttp, overview, renderMarking, reviewItem, type Method } from './marking-test-kit';

const reading = {
  questionNo: 5,
  fills: [
    { label: 'A', fill: 0.1 },
    { label: 'B', fill: 0.9 },
  ],
  marked: ['B'],
  confidence: 0.4,
};
const OPEN: ReviewItem[] = [
  reviewItem(1, { kind: 'blankPage' }),
  reviewItem(2, { kind: 'blankPage', page: 2 }),
  reviewItem(3, { kind: 'lowConfidence', questionNo: 5, reading }),
  reviewItem(4, { kind: 'otherHomework', actions: ['discard'] }),
  reviewItem(5, { kind: 'blankPage', page: 3 }),
];

/** The review endpoints, with a bulk endpoint that counts `marksLost` and fails item 5 when applying. */
function server(marksLost = 0) {
  const bulkCalls: ReviewBulkResolution[] = [];
  let applied = false;
  const fake = fakeHttp((method: Method, url: string, body: unknown) => {
    if (method === 'GET' && url === '/api/marking/homework/3') return overview();
    if (method === 'GET' && url === '/api/marking/homework/3/review')
      return (body as { status: string }).status === 'open' && !applied ? OPEN : [];
    if (method === 'GET' && url === '/api/homework/3') return homework(3);
    if (method === 'POST' && url === '/api/marking/review/bulk') {
      const request = body as ReviewBulkResolution;
      bulkCalls.push(request);
      if (!request.dryRun) applied = true;
      return {
        marksLost,
        results: request.itemIds.map((itemId) =>
          request.dryRun
            ? { itemId, outcome: 'ready', message: null }
            : itemId === 5
              ? { itemId, outcome: 'failed', message: '该异常已处理' }
              : { itemId, outcome: 'resolved', message: '已作废此页' },
        ),
      };
    }
    throw new Error(`unexpected ${method} ${url}`);
  });
  return { ...fake, bulkCalls };
}

const bar = () => screen.getByRole('toolbar', { name: '批量处理' });

describe('异常处理: 批量确认 / 批量作废', () => {
  it('selects all of a kind, asks with the count and the marks that would be lost, then discards them', async () => {
    const fake = server(2);
    renderMarking('/correct?homeworkId=3&tab=review', fake.http);
    await screen.findByRole('list', { name: '待处理异常' });
    await userEvent.click(within(bar()).getByRole('button', { name: '空白页（3）' }));
    expect(within(bar()).getByText('已选 3 项')).toBeInTheDocument();
    // A blank page takes both; 确认 of the whole kind is offered too.
    expect(within(bar()).getByRole('button', { name: '批量确认（3）' })).toBeEnabled();
    await userEvent.click(within(bar()).getByRole('button', { name: '批量作废（3）' }));

    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('将作废以下 3 项异常：');
    expect(fake.bulkCalls[0]).toEqual({ itemIds: [1, 2, 5], action: 'discard', dryRun: true });
    expect(within(dialog).getByText('这些答题卡上阅卷老师已给的 2 个分数将被丢弃，无法恢复。')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: '作废 3 项' }));

    // The list empties (the fake server now has nothing open) and the summary stays until closed.
    await within(dialog).findByText('已作废 2 项');
    await screen.findByText('没有待处理的异常');
    expect(screen.getByRole('dialog')).toHaveTextContent('已作废 2 项');
    expect(fake.bulkCalls[1]).toEqual({ itemIds: [1, 2, 5], action: 'discard', marksLost: 2 });
    expect(
      within(within(dialog).getByRole('list', { name: '未处理的异常' })).getByText('空白页：该异常已处理'),
    ).toBeInTheDocument();
  });

  it('sends only the items the action fits, says how many stay, and selects a range with shift-click', async () => {
    const fake = server();
    renderMarking('/correct?homeworkId=3&tab=review', fake.http);
    const list = await screen.findByRole('list', { name: '待处理异常' });
    const boxes = within(list).getAllByRole('checkbox', { name: /^选择：/ });
    expect(boxes).toHaveLength(5);
    await userEvent.click(boxes[0]!);
    const user = userEvent.setup();
    await user.keyboard('{Shift>}');
    await user.click(boxes[3]!);
    await user.keyboard('{/Shift}');
    expect(within(bar()).getByText('已选 4 项')).toBeInTheDocument();
    // 确认 fits the blank pages and the reading, not the sheet of a homework outside the school.
    expect(within(bar()).getByRole('button', { name: '批量确认（3）' })).toBeEnabled();
    expect(within(bar()).getByRole('button', { name: '批量作废（3）' })).toBeEnabled();

    await userEvent.click(within(bar()).getByRole('button', { name: '批量确认（3）' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('所选的另外 1 项不能确认，保持不变。');
    expect(within(dialog).getByText('不会丢弃任何已给的分数。')).toBeInTheDocument();
    expect(fake.bulkCalls[0]).toEqual({ itemIds: [1, 2, 3], action: 'accept', dryRun: true });
    await userEvent.click(within(dialog).getByRole('button', { name: '取消' }));
    expect(fake.bulkCalls).toHaveLength(1);
  });

  it('selects with A, clears with Esc and opens 批量作废 with D', async () => {
    const fake = server();
    renderMarking('/correct?homeworkId=3&tab=review', fake.http);
    await screen.findByRole('list', { name: '待处理异常' });
    await userEvent.keyboard('a');
    expect(within(bar()).getByText('已选 5 项')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(within(bar()).getByText('已选 0 项')).toBeInTheDocument();
    await userEvent.keyboard('a');
    await userEvent.keyboard('d');
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('将作废以下 4 项异常：');
    expect(fake.bulkCalls[0]).toMatchObject({ itemIds: [1, 2, 4, 5], action: 'discard', dryRun: true });
  });
});
