import { render, waitFor } from '@testing-library/react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { QuestionImagesProvider } from '../../../src/shared/ui/question-images';
import { plainText, RichText, richTextHtml } from '../../../src/shared/ui/rich-text';

describe('rich question text', () => {
  it('typesets $…$ formulas with KaTeX, loaded with the first formula, and keeps the text around them', async () => {
    const { container } = render(<RichText text={'计算 $\\frac{1}{2}+\\sqrt{9}$ 的值'} />);
    expect(container.textContent).toContain('计算');
    expect(container.textContent).toContain('的值');
    await waitFor(() => expect(container.querySelector('.katex')).not.toBeNull());
    expect(container.querySelector('.mfrac')).not.toBeNull();
    expect(container.querySelector('.sqrt')).not.toBeNull();
  });

  it('keeps the formatting, lists, tables and our own images of the bank', () => {
    const html = richTextHtml(
      '<p>x<sup>2</sup> 与 H<sub>2</sub>O，<b>加粗</b><u>下划线</u></p><table><tr><td>1</td></tr></table><img src="/files/q/1.png" alt="图1">',
    );
    expect(html).toContain('<sup>2</sup>');
    expect(html).toContain('<sub>2</sub>');
    expect(html).toContain('<b>加粗</b>');
    expect(html).toContain('<td>1</td>');
    expect(html).toContain('<img src="/files/q/1.png" alt="图1">');
  });

  it('fetches a 本校题 picture with the session (the loader) instead of letting the image tag ask for it', async () => {
    const src = `/api/question-images/1/${'e'.repeat(32)}.png`;
    // Without the session's loader the tag has no address at all (the server would answer 401).
    expect(richTextHtml(`<p>如图</p><p><img src="${src}"></p>`)).toBe(
      `<p>如图</p><p><img data-question-image="${src}" alt="图片"></p>`,
    );
    const blob = new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' });
    const load = vi.fn(async () => blob);
    const createObjectURL = vi.fn(() => 'blob:picture-1');
    const original = URL.createObjectURL;
    URL.createObjectURL = createObjectURL;
    onTestFinished(() => {
      URL.createObjectURL = original;
    });
    const { container } = render(
      <QuestionImagesProvider load={load}>
        <RichText text={`<p>如图</p><p><img src="${src}"></p>`} />
        <RichText text={`<img src="${src}">`} />
      </QuestionImagesProvider>,
    );
    await waitFor(() =>
      expect([...container.querySelectorAll('img')].map((img) => img.getAttribute('src'))).toEqual([
        'blob:picture-1',
        'blob:picture-1',
      ]),
    );
    // Fetched once for both.
    expect(load).toHaveBeenCalledTimes(1);
    expect(load).toHaveBeenCalledWith(src);
  });

  it('drops scripts, event handlers, styles, links and images from elsewhere', () => {
    const html = richTextHtml(
      '<img src="https://evil.example/x.png" onerror="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)">链接</a><span style="position:fixed" onclick="x()">文字</span>',
    );
    expect(html).not.toMatch(/script|onerror|onclick|javascript|style=|evil|<a/);
    expect(html).toContain('链接');
    expect(html).toContain('文字');
    expect(html).toContain('<img>');
    // Paths a browser resolves to another host are not ours either.
    for (const src of ['/\\evil.example/a.png', '/\t/evil.example/a.png', '//evil.example/a.png']) {
      expect(richTextHtml(`<img src="${src}">`)).toBe('<img>');
    }
  });

  it('gives screen readers the formula as MathML', async () => {
    const { container } = render(<RichText text={'$x^2$'} />);
    await waitFor(() => expect(container.querySelector('math')).not.toBeNull());
  });

  it('shows a formula KaTeX cannot read as written instead of failing', async () => {
    const { container } = render(<RichText text={'坏公式 $\\frac{1}{$ 之后'} />);
    await waitFor(() => expect(container.querySelector('.katex-error')).not.toBeNull());
    expect(container.textContent).toContain('坏公式');
    expect(container.textContent).toContain('之后');
  });

  it('turns rich text into one plain line for lists', () => {
    expect(plainText('<p>第一行</p><p>第二行 &amp; 更多</p>')).toBe('第一行\n第二行 & 更多');
  });
});
