import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pageRule, PrintPage, PrintSheet } from '../../../src/shared/ui/print-sheet';

afterEach(() => vi.restoreAllMocks());

describe('PrintSheet', () => {
  it('prints through the browser when 打印 is pressed', async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    render(
      <PrintSheet title="打印试卷">
        <p>第一题</p>
      </PrintSheet>,
    );
    await userEvent.click(screen.getByRole('button', { name: /打印/ }));
    expect(print).toHaveBeenCalledOnce();
  });

  it('disables 打印 while there is nothing to print', () => {
    render(
      <PrintSheet title="打印条形码" printable={false}>
        <p>请选择班级</p>
      </PrintSheet>,
    );
    expect(screen.getByRole('button', { name: /打印/ })).toBeDisabled();
  });

  it('draws an A4 sheet 210 mm wide padded by the margin, and asks the printer for A4 with that margin', () => {
    const { container } = render(
      <PrintSheet title="打印试卷" marginMm={12}>
        <p>内容</p>
      </PrintSheet>,
    );
    const sheet = screen.getByRole('article', { name: 'A4 纸张' });
    expect(sheet.style.width).toBe('210mm');
    expect(sheet.style.minHeight).toBe('297mm');
    expect(sheet.style.padding).toBe('12mm');
    expect(container.querySelector('style')?.textContent).toBe('@page { size: A4 portrait; margin: 12mm; }');
  });

  it('prints A3 landscape, and fixed pages with no printer margin so their own padding is exact', () => {
    const { container } = render(
      <PrintSheet title="打印测试" paperSize="A3" marginMm={10} layout="pages">
        <PrintPage label="校准页">
          <p>刻度尺</p>
        </PrintPage>
      </PrintSheet>,
    );
    const page = screen.getByRole('region', { name: '校准页' });
    expect(page.style.width).toBe('420mm');
    expect(page.style.height).toBe('297mm');
    expect(page.style.padding).toBe('10mm');
    expect(container.querySelector('style')?.textContent).toBe(pageRule('A3', 0));
    expect(pageRule('A3', 0)).toBe('@page { size: A3 landscape; margin: 0mm; }');
  });

  it('offers 返回 only when the page says where back is', async () => {
    const back = vi.fn();
    const { rerender } = render(
      <PrintSheet title="打印二维码">
        <p />
      </PrintSheet>,
    );
    expect(screen.queryByRole('button', { name: /返回/ })).not.toBeInTheDocument();
    rerender(
      <PrintSheet title="打印二维码" onBack={back}>
        <p />
      </PrintSheet>,
    );
    await userEvent.click(screen.getByRole('button', { name: /返回/ }));
    expect(back).toHaveBeenCalledOnce();
  });
});
