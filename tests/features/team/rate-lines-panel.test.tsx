/**
 * 各学年学科分数线 of 学校设置: the overrides listed with the school's lines beside them; a manager adds,
 * edits and removes one (checked before sending, in Chinese); a teacher only reads.
 */
import { Modal } from '@douyinfe/semi-ui-19';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RateLinesPanel } from '../../../src/features/team/rate-lines-panel';
import type { HttpClient } from '../../../src/shared/adapters/http-client';
import type { SchoolStructure } from '../../../src/shared/contract/org';
import type { RateLinesList } from '../../../src/shared/contract/rate-lines';

const structure: SchoolStructure = {
  schoolYears: [
    { id: 1, name: '2026级 (初一)', archived: false, classes: [] },
    { id: 2, name: '2025级 (初二)', archived: false, classes: [] },
  ],
  subjects: [
    { id: 7, name: '语文', archived: false },
    { id: 8, name: '数学', archived: false },
  ],
};

const defaults = { excellentPercent: 85, goodPercent: 75, passPercent: 60, lowPercent: 40 };
const mathLines = {
  schoolYearId: 1,
  schoolYearName: '2026级 (初一)',
  subjectId: 8,
  subjectName: '数学',
  excellentPercent: 92.5,
  goodPercent: 80,
  passPercent: 70,
  lowPercent: 50,
};

function renderPanel(list: RateLinesList) {
  const http = {
    get: vi.fn(async () => list),
    putJson: vi.fn(async (url: string, body: typeof defaults) => {
      const [, , , , , , year, subject] = url.split('/');
      const item = {
        schoolYearId: Number(year),
        schoolYearName: structure.schoolYears.find((y) => y.id === Number(year))!.name,
        subjectId: Number(subject),
        subjectName: structure.subjects.find((s) => s.id === Number(subject))!.name,
        ...body,
      };
      return { ...list, items: [...list.items.filter((i) => i.subjectId !== item.subjectId), item] };
    }),
    deleteQuery: vi.fn(async () => ({ ...list, items: [] })),
  } as unknown as HttpClient;
  render(<RateLinesPanel http={http} orgId={3} structure={structure} />);
  return http;
}

async function choose(label: string, option: string) {
  const user = userEvent.setup();
  const picker = await screen.findByRole('combobox', { name: label });
  await user.click(picker);
  const item = await screen.findByRole('option', { name: new RegExp(option.replace(/[()]/g, '\\$&')) });
  await user.click(item);
}

async function setLine(label: string, value: string) {
  const input = screen.getByRole('spinbutton', { name: label });
  await userEvent.clear(input);
  await userEvent.type(input, value);
}

afterEach(() => Modal.destroyAll());

describe('各学年学科分数线 in 学校设置', () => {
  it("lists the overrides beside the school's lines, adds one and refuses a wrong order in Chinese", async () => {
    const http = renderPanel({ defaults, items: [mathLines], editableSchoolYearIds: [1, 2] });
    const section = await screen.findByRole('region', { name: '各学年学科分数线' });
    expect(within(section).getByTestId('default-lines')).toHaveTextContent('优秀 ≥85% · 良好 ≥75% · 及格 ≥60% · 低分 <40%');
    const row = within(section).getByText('数学').closest('tr')!;
    expect(within(row).getByText('2026级 (初一)')).toBeInTheDocument();
    expect(within(row).getByText('≥92.5%')).toBeInTheDocument();
    expect(within(row).getByText('<50%')).toBeInTheDocument();

    await userEvent.click(within(section).getByRole('button', { name: '添加分数线' }));
    await choose('学科', '语文');
    // The school's lines are the starting values; a 低分 line at or above 及格 is refused before sending.
    expect(screen.getByRole('spinbutton', { name: '及格' })).toHaveValue('60');
    await setLine('低分', '65');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('分数线须满足 0 < 低分 < 及格 ≤ 良好 ≤ 优秀 ≤ 100');
    expect(http.putJson).not.toHaveBeenCalled();

    await setLine('低分', '35.5');
    await setLine('及格', '65');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() =>
      expect(http.putJson).toHaveBeenCalledWith(
        '/api/org/schools/3/rate-lines/1/7',
        { excellentPercent: 85, goodPercent: 75, passPercent: 65, lowPercent: 35.5 },
        expect.anything(),
      ),
    );
    const added = (await within(section).findByText('语文')).closest('tr')!;
    expect(within(added).getByText('<35.5%')).toBeInTheDocument();
    expect(within(added).getByText('≥65%')).toBeInTheDocument();
  });

  it('removes an override after confirming', async () => {
    const http = renderPanel({ defaults, items: [mathLines], editableSchoolYearIds: [1] });
    const section = await screen.findByRole('region', { name: '各学年学科分数线' });
    await userEvent.click(within(section).getByRole('button', { name: '删除' }));
    // The confirm's own 删除 button.
    await waitFor(() => expect(screen.getAllByRole('button', { name: '删除' })).toHaveLength(2));
    await userEvent.click(screen.getAllByRole('button', { name: '删除' }).at(-1)!);
    await waitFor(() =>
      expect(http.deleteQuery).toHaveBeenCalledWith('/api/org/schools/3/rate-lines/1/8', undefined, expect.anything()),
    );
    expect(await within(section).findByText('还没有单独设置的学年学科，全部按学校分数线')).toBeInTheDocument();
  });

  it('shows a teacher the lines without add, edit or remove', async () => {
    renderPanel({ defaults, items: [mathLines], editableSchoolYearIds: [] });
    const section = await screen.findByRole('region', { name: '各学年学科分数线' });
    expect(within(section).getByText('数学')).toBeInTheDocument();
    expect(within(section).queryByRole('button')).toBeNull();
  });
});
