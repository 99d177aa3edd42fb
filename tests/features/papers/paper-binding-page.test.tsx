import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PaperBindingPage } from '../../../src/features/papers/pages/paper-binding-page';
import type { BindingJob } from '../../../src/shared/contract/binding';
import { fakeHttp, homework, renderWithPapers } from './papers-test-kit';

const JOB: BindingJob = {
  id: '0b7c7d3e-6a55-4a57-9d39-0d8f4a0a1b2c',
  status: 'running',
  done: 1,
  total: 4,
  title: '第一单元测验 · 初一(1)班',
  fileName: null,
  error: null,
  createdAt: '2026-03-02T08:00:00.000Z',
};

async function choose(label: string, option: string) {
  const user = userEvent.setup();
  const picker = screen.getByRole('combobox', { name: label });
  await user.click(picker.querySelector('.semi-select-selection-text') ?? picker);
  await user.click(await screen.findByRole('option', { name: new RegExp(option) }));
}

function renderPage(finalJob: BindingJob, address = '/paperbinding') {
  const fake = fakeHttp((url) => {
    if (url === '/api/system/class') return [{ id: 4, name: '初一(1)班' }];
    if (url === '/api/homework') return { list: [homework(7, { title: '第一单元测验' })], total: 1, page: 1, pageSize: 100 };
    if (url === `/api/binding/jobs/${JOB.id}`) return finalJob;
    throw new Error(`unexpected ${url}`);
  });
  fake.postJson.mockImplementation(async (url: string) => {
    if (url === '/api/binding/jobs') return JOB;
    throw new Error(`unexpected post to ${url}`);
  });
  renderWithPapers(<PaperBindingPage />, fake.http, address);
  return fake;
}

describe('/paperbinding', () => {
  it('starts a class booklet of a homework, shows its progress and offers the file when done', async () => {
    const fake = renderPage({ ...JOB, status: 'done', done: 4, fileName: '第一单元测验-初一(1)班-装订.pdf' });
    const start = screen.getByRole('button', { name: '开始装订' });
    expect(start).toBeDisabled();
    await choose('班级', '初一\\(1\\)班');
    await choose('作业', '第一单元测验');
    await userEvent.setup().click(start);
    expect(fake.postJson).toHaveBeenCalledWith(
      '/api/binding/jobs',
      { kind: 'homework', classId: 4, homeworkId: 7 },
      expect.anything(),
    );
    expect(await screen.findByText('已装订 1 / 4 名学生（25%）')).toBeInTheDocument();
    expect(screen.getByText('生成中')).toBeInTheDocument();
    const download = await screen.findByRole('button', { name: '下载' }, { timeout: 3000 });
    expect(screen.getByText('第一单元测验-初一(1)班-装订.pdf')).toBeInTheDocument();
    expect(screen.getByText('已装订 4 / 4 名学生（100%）')).toBeInTheDocument();
    await userEvent.setup().click(download);
    expect(fake.downloadGet).toHaveBeenCalledWith(
      `/api/binding/jobs/${JOB.id}/file`,
      undefined,
      '第一单元测验-初一(1)班-装订.pdf',
    );
  });

  it('says why a job failed, in Chinese, and offers no download', async () => {
    renderPage({ ...JOB, status: 'failed', error: '装订失败：生成装订文件时出错，请稍后重试' });
    await choose('班级', '初一\\(1\\)班');
    await choose('作业', '第一单元测验');
    await userEvent.setup().click(screen.getByRole('button', { name: '开始装订' }));
    expect(await screen.findByText('装订失败：生成装订文件时出错，请稍后重试', undefined, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^下载/ })).toBeNull();
  });

  it('finds the job named in the address again after a reload, and offers its file', async () => {
    const fake = renderPage(
      { ...JOB, status: 'done', done: 4, fileName: '第一单元测验-初一(1)班-装订.pdf' },
      `/paperbinding?jobId=${JOB.id}`,
    );
    expect(await screen.findByText('第一单元测验-初一(1)班-装订.pdf')).toBeInTheDocument();
    expect(screen.getByText('已装订 4 / 4 名学生（100%）')).toBeInTheDocument();
    expect(fake.get).toHaveBeenCalledWith(`/api/binding/jobs/${JOB.id}`, undefined, expect.anything());
    expect(fake.postJson).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: '下载' })).toBeInTheDocument();
  });
});
