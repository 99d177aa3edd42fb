import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { useBasketStore } from '../../../src/features/papers/basket.store';
import { PapersServicesProvider } from '../../../src/features/papers/papers-services';
import { usePaperFromAddress } from '../../../src/features/papers/use-paper-from-address';
import type { PaperDetail } from '../../../src/shared/contract/papers';
import { fakeHttp, question, TEST_USER } from './papers-test-kit';

const PAPER: PaperDetail = {
  id: 7,
  title: '有理数单元测试',
  subjectId: 1,
  schoolYearId: 1,
  paperSize: 'A4',
  totalScore: 11,
  subjectName: '数学',
  questionCount: 2,
  sections: [
    {
      title: '一、选择题',
      questions: [{ questionId: 1, score: 3, no: 1, question: question(1, 'single') }],
    },
    {
      title: '二、解答题',
      questions: [{ questionId: 2, score: 8, no: 2, question: question(2, 'subjective') }],
    },
  ],
};

function Probe() {
  usePaperFromAddress();
  return <p data-testid="address">{useLocation().search}</p>;
}

function open(search: string) {
  const fake = fakeHttp((url) => {
    if (url === '/api/papers/7') return PAPER;
    throw new Error(`unexpected ${url}`);
  });
  const view = render(
    <MemoryRouter initialEntries={[`/edit${search}`]}>
      <PapersServicesProvider services={{ http: fake.http, user: TEST_USER }}>
        <Probe />
      </PapersServicesProvider>
    </MemoryRouter>,
  );
  return { ...fake, view };
}

afterEach(() => useBasketStore.getState().load({ ...PAPER, sections: [] }, null));

describe('opening a saved paper in the 试题篮', () => {
  it('loads ?paperId= for editing in place and clears the address', async () => {
    const { view } = open('?paperId=7');
    await waitFor(() => expect(useBasketStore.getState().paperId).toBe(7));
    const basket = useBasketStore.getState();
    expect(basket.title).toBe('有理数单元测试');
    expect(basket.sections.map((s) => [s.title, s.items.map((i) => [i.question.id, i.score])])).toEqual([
      ['选择题', [[1, 3]]],
      ['解答题', [[2, 8]]],
    ]);
    await waitFor(() => expect(view.getByTestId('address').textContent).toBe(''));
  });

  it('loads ?copyFrom= as a new paper (saving creates another one)', async () => {
    open('?copyFrom=7');
    await waitFor(() => expect(useBasketStore.getState().title).toBe('有理数单元测试（副本）'));
    expect(useBasketStore.getState().paperId).toBeNull();
    expect(useBasketStore.getState().sections).toHaveLength(2);
  });

  it('asks before replacing other unsaved work in the basket, and keeps it when told to', async () => {
    useBasketStore.getState().load({ ...PAPER, title: '我的草稿', sections: PAPER.sections.slice(0, 1) }, null);
    open('?paperId=7');
    const dialog = await screen.findByRole('dialog', { name: /替换试题篮中的内容/ });
    await userEvent.click(within(dialog).getByRole('button', { name: '保留当前内容' }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(useBasketStore.getState().title).toBe('我的草稿');

    open('?paperId=7');
    await waitFor(() => expect(screen.getAllByRole('button', { name: '替换' }).length).toBeGreaterThan(1));
    await userEvent.click(screen.getAllByRole('button', { name: '替换' }).at(-1)!);
    await waitFor(() => expect(useBasketStore.getState().paperId).toBe(7));
    expect(useBasketStore.getState().title).toBe('有理数单元测试');
  });

  it('ignores an address without a usable id', async () => {
    const { get } = open('?paperId=abc');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(get).not.toHaveBeenCalled();
  });
});
