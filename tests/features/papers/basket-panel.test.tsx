import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { BasketPanel } from '../../../src/features/papers/basket-panel';
import { useBasketStore } from '../../../src/features/papers/basket.store';
import { question } from './papers-test-kit';

afterEach(() => useBasketStore.getState().clear());

describe('试题篮', () => {
  it('typesets the formulas of question titles instead of showing raw LaTeX', async () => {
    useBasketStore.getState().add(question(1, 'single', { stem: '<p>$-\\frac{2}{3}$ 的相反数是</p>' }));
    render(<BasketPanel onPreview={() => undefined} onSave={() => undefined} onSaveSet={() => undefined} />);
    const item = screen.getByRole('listitem', { name: '试题篮第 1 题' });
    await waitFor(() => expect(item.querySelector('.katex-html')).not.toBeNull());
    // What is seen (KaTeX's MathML copy for screen readers keeps the TeX as an annotation).
    const seen = item.cloneNode(true) as HTMLElement;
    seen.querySelectorAll('.katex-mathml').forEach((node) => node.remove());
    expect(seen.textContent).not.toContain('$');
    expect(seen.textContent).not.toContain('\\frac');
    expect(item).toHaveTextContent('的相反数是');
  });

  it('lets each question’s score be changed, and the basket’s total follows', async () => {
    useBasketStore.getState().add(question(1, 'single'));
    useBasketStore.getState().add(question(2, 'single'));
    render(<BasketPanel onPreview={() => undefined} onSave={() => undefined} onSaveSet={() => undefined} />);
    const before = Number(screen.getByTestId('basket-total').textContent);
    // The score fields load with the first question in the basket.
    const score = await screen.findByRole('spinbutton', { name: '第 1 题分值' }, { timeout: 5000 });
    const old = Number((score as HTMLInputElement).value);
    await userEvent.clear(score);
    await userEvent.type(score, '12.5');
    await userEvent.tab();
    await waitFor(() => expect(screen.getByTestId('basket-total')).toHaveTextContent(String(before - old + 12.5)));
  });
});
