/**
 * 生成错题重练 on a fake server: with 并附班级共性错题, making personal sets also makes the class's common
 * set (the whole class, the teacher's 重练线) and prints both as one job (?with=); without it, one set
 * and its own print as before.
 */
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SetMaker } from '../../../src/features/rehearse/set-maker';
import { RehearseServicesProvider } from '../../../src/features/rehearse/rehearse-services';
import type { HttpClient } from '../../../src/shared/adapters/http-client';
import type { SetCreated, SetPreview } from '../../../src/shared/contract/rehearse-sets';

const reason = {
  knowledgePoints: ['有理数'],
  type: 'single',
  difficulty: 3,
  originDifficulty: 3,
  originRate: 0.4,
  pickRate: 0.4,
  neverSeen: false,
  timesWrong: 1,
  chosenLabels: ['B'],
  distractor: null,
  noSimilar: false,
  text: '原题（做错 1 次）',
};
const PREVIEW: SetPreview = {
  kind: 'personal',
  students: [
    {
      studentId: 41,
      name: '张三',
      code: '2026010141',
      classId: 4,
      className: '初一(1)班',
      wrongCount: 1,
      items: [{ position: 1, questionId: 7, originQuestionId: 7, kind: 'own', reason, alternatives: [], score: 3 }],
    },
  ],
  classItems: [],
  questions: [
    { id: 7, type: 'single', difficulty: 3, stem: '下列数中最小的是', options: ['-3', '0'], knowledgePoints: ['有理数'] },
  ],
};
const created = (setId: number, kind: 'personal' | 'class'): SetCreated => ({
  setId,
  homeworkId: setId + 100,
  kind,
  classes: [{ id: 4, name: '初一(1)班', students: kind === 'class' ? 40 : 1 }],
  students: kind === 'class' ? 40 : 1,
  questions: kind === 'class' ? 5 : 1,
});

function setup() {
  const postJson = vi.fn(async (url: string, body: { kind?: string }) => {
    if (url === '/api/rehearse/sets/preview') return PREVIEW;
    if (url === '/api/rehearse/sets') return body.kind === 'class' ? created(12, 'class') : created(11, 'personal');
    throw new Error(`unexpected ${url}`);
  });
  const downloadGet = vi.fn(async (_url: string, _query: unknown, _fileName: string) => undefined);
  const get = vi.fn(async () => {
    throw new Error('no progress');
  });
  const http = { get, postJson, downloadGet } as unknown as HttpClient;
  render(
    <RehearseServicesProvider services={{ http, schoolYearId: 1, RichText: ({ text }) => <span>{text}</span> }}>
      <SetMaker
        visible
        onClose={() => undefined}
        schoolYearId={1}
        classId={4}
        className="初一(1)班"
        subjectId={2}
        subjectName="数学"
        students={[{ id: 41, name: '张三', code: '2026010141', open: 1 }]}
      />
    </RehearseServicesProvider>,
  );
  return { postJson, downloadGet };
}

describe('生成错题重练', () => {
  it('makes the class’s common set with the personal sets and prints both as one job', { timeout: 20_000 }, async () => {
    const { postJson, downloadGet } = setup();
    await userEvent.click(await screen.findByRole('checkbox', { name: /并附班级共性错题/ }));
    const line = screen.getByRole('spinbutton', { name: '重练线' });
    await userEvent.clear(line);
    await userEvent.type(line, '50');
    await userEvent.click(screen.getByRole('button', { name: '预览' }));
    await screen.findAllByText('张三');
    await userEvent.click(screen.getByRole('button', { name: '生成并打印' }));
    await waitFor(() => expect(downloadGet).toHaveBeenCalled());
    const made = postJson.mock.calls.filter(([url]) => url === '/api/rehearse/sets').map(([, body]) => body);
    expect(made).toHaveLength(2);
    expect(made[0]).toMatchObject({ kind: 'personal', classIds: [4] });
    expect(made[1]).toMatchObject({ kind: 'class', classIds: [4], linePercent: 50, swaps: [] });
    expect(made[1]).not.toHaveProperty('studentIds');
    expect(downloadGet).toHaveBeenCalledWith(
      '/api/rehearse/sets/11/pdf',
      expect.objectContaining({ classId: 4, with: 12 }),
      expect.stringContaining('（含共性错题）'),
    );
    expect(await screen.findByText(/班级共性错题 40 名学生共 5 道题；个人举一反三 1 名学生共 1 道题/)).toBeInTheDocument();
    expect(
      screen.getByText(/已布置为作业「初一\(1\)班数学错题重练」和「初一\(1\)班数学错题重练（共性错题）」/),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /下载全班 PDF/ })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /下载合并 PDF/ }));
    expect(downloadGet).toHaveBeenLastCalledWith(
      '/api/rehearse/sets/11/pdf',
      { classId: 4, with: 12 },
      expect.stringContaining('（含共性错题）'),
    );
  });

  it('without it, makes one set and prints it alone', { timeout: 20_000 }, async () => {
    const { postJson, downloadGet } = setup();
    expect(screen.queryByRole('spinbutton', { name: '重练线' })).toBeNull();
    await userEvent.click(await screen.findByRole('button', { name: '预览' }));
    await screen.findAllByText('张三');
    await userEvent.click(screen.getByRole('button', { name: '生成并打印' }));
    await waitFor(() => expect(downloadGet).toHaveBeenCalled());
    expect(postJson.mock.calls.filter(([url]) => url === '/api/rehearse/sets')).toHaveLength(1);
    expect(downloadGet.mock.calls[0]![1]).not.toHaveProperty('with');
    expect(screen.queryByRole('button', { name: /下载合并 PDF/ })).toBeNull();
  });
});
