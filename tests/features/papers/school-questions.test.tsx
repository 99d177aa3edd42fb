/**
 * 校本资料's 本校题 tab: the school's own questions of a subject, 新建本校题 (a choice question written in
 * the dialog reaches the server as the bank's rich text with its answer letter), and 编辑/删除 only where
 * the server says the teacher may (`canEdit`).
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Modal } from '@douyinfe/semi-ui-19';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SchoolQuestions } from '../../../src/features/papers/school-questions';
import type { Question } from '../../../src/shared/contract/papers';
import { fakeHttp, question, renderWithPapers } from './papers-test-kit';

afterEach(() => Modal.destroyAll());

/** Types into a field at once (pasted), as typing key by key is slow in jsdom. */
async function fill(field: HTMLElement, text: string) {
  await userEvent.click(field);
  await userEvent.paste(text);
}

function renderTab(rows: Question[]) {
  const fake = fakeHttp((url, params) => {
    if (url === '/api/questions') {
      const list = rows.filter((q) => q.subjectId === params?.subjectId);
      return { list, total: list.length, page: 1, pageSize: 10 };
    }
    if (url === '/api/subjects') return [{ id: 1, name: '数学' }];
    if (url.endsWith('/chapters')) return [{ id: 11, name: '第一章 有理数', children: [] }];
    if (url.endsWith('/knowledge-points')) return [{ id: 21, name: '有理数的大小', children: [] }];
    throw new Error(`unexpected ${url}`);
  });
  fake.postJson.mockImplementation(async (url: string, body: unknown) => {
    if (url === '/api/questions') return { ...question(99, 'single'), ...(body as object), shared: false };
    throw new Error(`unexpected post to ${url}`);
  });
  renderWithPapers(<SchoolQuestions />, fake.http, '/schoolmaterials?tab=questions');
  return fake;
}

describe('/schoolmaterials?tab=questions (本校题)', () => {
  it("lists the school's own questions of the first subject, with 编辑/删除 only where the teacher may", async () => {
    const fake = renderTab([
      question(1, 'judge', { shared: false, canEdit: true, stem: '我写的判断题' }),
      question(2, 'judge', { shared: false, canEdit: false, stem: '同事写的判断题' }),
    ]);
    const mine = (await screen.findByText('我写的判断题')).closest('.semi-card') as HTMLElement;
    const theirs = screen.getByText('同事写的判断题').closest('.semi-card') as HTMLElement;
    expect(within(mine).getByText('本校题')).toBeInTheDocument();
    expect(within(mine).getByRole('button', { name: '编辑：第 1 题' })).toBeInTheDocument();
    expect(within(theirs).queryByRole('button', { name: /编辑|删除/ })).toBeNull();
    expect(fake.get).toHaveBeenCalledWith(
      '/api/questions',
      expect.objectContaining({ subjectId: 1, scope: 'own' }),
      expect.anything(),
    );

    await userEvent.click(within(mine).getByRole('button', { name: '删除：第 1 题' }));
    const confirm = await screen.findByRole('dialog');
    await userEvent.click(within(confirm).getByText('删除').closest('button')!);
    await waitFor(() => expect(fake.deleteQuery).toHaveBeenCalledWith('/api/questions/1'));
  });

  it('writes a new single-choice question and sends it as rich text with its answer, chapter and knowledge point', async () => {
    const fake = renderTab([]);
    expect(await screen.findByText('这个学科还没有本校题')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '新建本校题' }));
    // The editor (a confirmation of the test before may still be closing).
    const dialog = await waitFor(() => {
      const found = screen.getAllByRole('dialog').find((d) => within(d).queryByText('新建本校题'));
      if (!found) throw new Error('no 新建本校题 dialog');
      return found;
    });

    // Nothing chosen as the answer yet: the contract's message, and nothing sent.
    await fill(within(dialog).getByRole('textbox', { name: '题干' }), '比较大小：-3 < -1 吗？');
    for (const [letter, text] of [
      ['A', '是'],
      ['B', '否'],
      ['C', '相等'],
      ['D', '无法比较'],
    ]) {
      await fill(within(dialog).getByRole('textbox', { name: `选项 ${letter}` }), text!);
    }
    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(await within(dialog).findByText('答案不能为空')).toBeInTheDocument();
    expect(fake.postJson).not.toHaveBeenCalled();

    await userEvent.click(within(within(dialog).getByRole('group', { name: '答案' })).getByRole('radio', { name: 'A' }));
    await fill(within(dialog).getByRole('textbox', { name: '解析' }), '负数绝对值大的反而小');
    await userEvent.click(within(dialog).getByRole('combobox', { name: '章节' }));
    await userEvent.click(await screen.findByText('第一章 有理数'));
    await userEvent.click(within(dialog).getByRole('combobox', { name: '知识点' }));
    await userEvent.click(await screen.findByText('有理数的大小'));
    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() =>
      expect(fake.postJson).toHaveBeenCalledWith(
        '/api/questions',
        {
          subjectId: 1,
          type: 'single',
          stem: '比较大小：-3 &lt; -1 吗？',
          options: ['是', '否', '相等', '无法比较'],
          answer: ['A'],
          analysis: '负数绝对值大的反而小',
          difficulty: 3,
          chapterIds: [11],
          knowledgePointIds: [21],
          source: '',
        },
        expect.anything(),
      ),
    );
  }, 20_000);

  it('keeps the pictures of a question when it is edited, adds one to 解析, and removes the ones not kept', async () => {
    const stemPicture = `/api/question-images/1/${'a'.repeat(32)}.png`;
    const optionPicture = `/api/question-images/1/${'b'.repeat(32)}.jpg`;
    const added = `/api/question-images/1/${'c'.repeat(32)}.webp`;
    const dropped = `/api/question-images/1/${'d'.repeat(32)}.png`;
    const fake = renderTab([
      question(5, 'single', {
        shared: false,
        canEdit: true,
        stem: `<p>看图选择</p><p><img src="${stemPicture}"></p>`,
        options: [`甲 <img src="${optionPicture}">`, '乙', '丙', '丁'],
        answer: ['A'],
        analysis: '',
      }),
    ]);
    const uploads = [added, dropped];
    fake.upload.mockImplementation(async () => ({ src: uploads.shift()! }));
    const putJson = vi.fn(async (url: string, body: Record<string, unknown>) => {
      void url;
      return { ...question(5, 'single'), ...body, shared: false, canEdit: true };
    });
    (fake.http as unknown as { putJson: typeof putJson }).putJson = putJson;

    await userEvent.click(await screen.findByRole('button', { name: '编辑：第 1 题' }));
    const dialog = await waitFor(() => {
      const found = screen.getAllByRole('dialog').find((d) => within(d).queryByText('编辑本校题'));
      if (!found) throw new Error('no 编辑本校题 dialog');
      return found;
    });
    // Pictures are kept now: no warning that they would be lost.
    expect(within(dialog).queryByText(/保存后.*丢失/)).toBeNull();
    expect(
      within(within(dialog).getByRole('group', { name: '题干图片' })).getByRole('button', { name: '删除题干图片 1' }),
    ).toBeVisible();
    expect(
      within(within(dialog).getByRole('group', { name: '选项 A图片' })).getByRole('button', { name: '删除选项 A图片 1' }),
    ).toBeVisible();

    // Over 2 MB: refused here, in Chinese, before anything is sent.
    const picker = within(dialog).getByLabelText('选择解析图片');
    const huge = new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    await userEvent.upload(picker, huge);
    expect(await screen.findByText('图片不能超过 2 MB')).toBeInTheDocument();
    expect(fake.upload).not.toHaveBeenCalled();

    // Two uploaded to 解析, the second taken out again before saving.
    const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'fig.png', { type: 'image/png' });
    await userEvent.upload(picker, png());
    await waitFor(() => expect(fake.upload).toHaveBeenCalledTimes(1));
    await userEvent.upload(picker, png());
    await waitFor(() => expect(fake.upload).toHaveBeenCalledTimes(2));
    expect(fake.upload).toHaveBeenCalledWith('/api/question-images', expect.any(FormData), {}, expect.anything());
    await userEvent.click(await within(dialog).findByRole('button', { name: '删除解析图片 2' }));

    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(putJson).toHaveBeenCalled());
    const [url, body] = putJson.mock.calls[0]!;
    expect(url).toBe('/api/questions/5');
    expect(body).toMatchObject({
      stem: `看图选择<p><img src="${stemPicture}"></p>`,
      options: [`甲 <img src="${optionPicture}">`, '乙', '丙', '丁'],
      analysis: `<p><img src="${added}"></p>`,
    });
    // The picture taken out is removed from the server; the kept ones are not.
    await waitFor(() => expect(fake.deleteQuery).toHaveBeenCalledWith(dropped, undefined, { silent: true }));
    expect(fake.deleteQuery).toHaveBeenCalledTimes(1);
  }, 30_000);
});
