import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { RosterDialog } from '../../../src/features/papers/roster-dialog';
import { fakeHttp, renderWithPapers } from './papers-test-kit';

function open() {
  let roster = [{ id: 1, classId: 4, name: '张三', code: '2026010101' }];
  const fake = fakeHttp((url) => {
    if (url === '/api/system/class') return [{ id: 4, name: '初一(1)班' }];
    if (url === '/api/classes/4/students') return roster;
    throw new Error(`unexpected ${url}`);
  });
  renderWithPapers(<RosterDialog visible onClose={() => undefined} />, fake.http);
  return { ...fake, setRoster: (next: typeof roster) => (roster = next) };
}

async function chooseClass() {
  const user = userEvent.setup();
  const picker = screen.getByRole('combobox', { name: '花名册班级' });
  await user.click(picker.querySelector('.semi-select-selection-text') ?? picker);
  await user.click(await screen.findByRole('option', { name: /初一\(1\)班/ }));
}

const xlsx = () => new File(['x'], '花名册.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });

describe('学生花名册', () => {
  it('lists the chosen class and imports a file, showing the class again from the server', async () => {
    const fake = open();
    expect(screen.getByRole('button', { name: /导入花名册/ })).toBeDisabled();
    await chooseClass();
    expect(await screen.findByText('张三')).toBeInTheDocument();
    fake.upload.mockResolvedValueOnce({ imported: 2, errors: [] });
    fake.setRoster([
      { id: 1, classId: 4, name: '张三', code: '2026010101' },
      { id: 2, classId: 4, name: '李四', code: '2026010102' },
    ]);
    await userEvent.upload(screen.getByLabelText('花名册文件'), xlsx());
    await waitFor(() =>
      expect(fake.upload).toHaveBeenCalledWith(
        '/api/classes/4/students/import',
        expect.any(FormData),
        expect.anything(),
        expect.anything(),
      ),
    );
    const body = fake.upload.mock.calls[0]![1];
    expect((body.get('file') as File).name).toBe('花名册.xlsx');
    expect(await screen.findByText('李四')).toBeInTheDocument();
  });

  it('lists every bad row of a refused file', async () => {
    const fake = open();
    await chooseClass();
    fake.upload.mockResolvedValueOnce({
      imported: 0,
      errors: [
        { row: 3, reason: '姓名不能为空' },
        { row: 5, reason: '学号必须是 4 到 20 位数字' },
      ],
    });
    await userEvent.upload(screen.getByLabelText('花名册文件'), xlsx());
    const errors = await screen.findByRole('list', { name: '花名册错误' });
    expect(
      within(errors)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['第 3 行：姓名不能为空', '第 5 行：学号必须是 4 到 20 位数字']);
    expect(screen.getByText('花名册有 2 行需要修改，本次没有导入任何学生')).toBeInTheDocument();
  });

  it('downloads the template', async () => {
    const fake = open();
    await userEvent.click(screen.getByRole('button', { name: /下载模板/ }));
    expect(fake.downloadGet).toHaveBeenCalledWith('/api/students/roster-template', undefined, '花名册模板.xlsx');
  });
});
