/**
 * 校本资料's 本校题 tab: the school's own questions of a subject, 新建本校题 (a choice question written in
 * the dialog reaches the server as the bank's rich text with its answer letter), and 编辑/删除 only where
 * the server says the teacher may (`canEdit`).
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Modal } from '@douyinfe/semi-ui-19';
import { afterEach, describe, expect, it } from 'vitest';
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
});
