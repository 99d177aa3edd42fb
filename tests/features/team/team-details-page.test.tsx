/**
 * 学校设置 (/team/details) as a manager sees it: after 升年级 in 学年与班级, the sections that name school
 * years (排名设置, 各学年学科分数线) show the new name at once, without a reload of the page.
 */
import { Modal } from '@douyinfe/semi-ui-19';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TeamDetailsPage } from '../../../src/features/team/pages/team-details-page';
import { TeamServicesProvider } from '../../../src/features/team/team-services';
import type { HttpClient } from '../../../src/shared/adapters/http-client';
import type { AnalysisOptions } from '../../../src/shared/contract/analysis';
import type { SchoolDetail, SchoolStructure } from '../../../src/shared/contract/org';
import type { RateLinesList } from '../../../src/shared/contract/rate-lines';
import { makeUser } from '../portal/portal-test-kit';

const school: SchoolDetail = {
  id: 1,
  name: '示范中学',
  region: '北京市海淀区',
  schoolType: '初中',
  logo: null,
  filingNumber: '',
  passPercent: 60,
  goodPercent: 75,
  excellentPercent: 85,
  lowPercent: 40,
  memberCount: 12,
  myRole: 'creator',
  canManage: true,
  joinCode: null,
};

/** A fake server holding one school year's name, which 升年级 changes. */
function fakeServer() {
  const state = { yearName: '2026级 (初一)', className: '初一(1)班' };
  const structure = (): SchoolStructure => ({
    schoolYears: [{ id: 5, name: state.yearName, archived: false, classes: [{ id: 9, name: state.className, archived: false }] }],
    subjects: [{ id: 7, name: '数学', archived: false }],
  });
  const options = (): AnalysisOptions => ({
    schoolYears: [{ id: 5, name: state.yearName, ranksAllowed: false, ranksEnabled: null }],
    subjects: [{ id: 7, name: '数学' }],
    classes: [{ id: 9, name: state.className, schoolYearId: 5 }],
    homework: [],
    gradeDirector: false,
  });
  const rateLines = (): RateLinesList => ({
    defaults: { excellentPercent: 85, goodPercent: 75, passPercent: 60, lowPercent: 40 },
    items: [
      {
        schoolYearId: 5,
        schoolYearName: state.yearName,
        subjectId: 7,
        subjectName: '数学',
        excellentPercent: 90,
        goodPercent: 80,
        passPercent: 70,
        lowPercent: 50,
      },
    ],
    editableSchoolYearIds: [5],
  });
  const http = {
    get: vi.fn(async (url: string) => {
      if (url === '/api/org/schools/1') return school;
      if (url === '/api/org/schools/1/structure') return structure();
      if (url === '/api/analysis/options') return options();
      if (url === '/api/org/schools/1/rate-lines') return rateLines();
      if (url === '/api/user/info') return makeUser({ classDefaultId: 5, classDefaultName: state.yearName });
      throw new Error(`unexpected GET ${url}`);
    }),
    postJson: vi.fn(async (url: string) => {
      if (url === '/api/org/schools/1/school-years/5/promote') {
        state.yearName = '2026级 (初二)';
        state.className = '初二(1)班';
        return { name: state.yearName, graduated: false };
      }
      throw new Error(`unexpected POST ${url}`);
    }),
  } as unknown as HttpClient;
  return http;
}

afterEach(() => Modal.destroyAll());

describe('学校设置 after 升年级', () => {
  it(
    'shows the promoted school year’s new name in 排名设置 and 各学年学科分数线 without a reload',
    { timeout: 30_000 },
    async () => {
      const http = fakeServer();
      render(
        <MemoryRouter initialEntries={['/team/details?orgId=1&isCreator=true']}>
          <TeamServicesProvider
            services={{
              http,
              user: makeUser({ isCreator: true, classDefaultId: 5 }),
              loggedIn: true,
              onUserChanged: vi.fn(),
              showLogin: vi.fn(),
              imageBaseUrl: '/files/',
            }}
          >
            <TeamDetailsPage />
          </TeamServicesProvider>
        </MemoryRouter>,
      );
      const ranks = await screen.findByRole('region', { name: '排名设置' }, { timeout: 10_000 });
      expect(await within(ranks).findByText('2026级 (初一)')).toBeInTheDocument();
      const lines = await screen.findByRole('region', { name: '各学年学科分数线' }, { timeout: 10_000 });
      expect(await within(lines).findByText('2026级 (初一)')).toBeInTheDocument();

      await userEvent.click(await screen.findByRole('button', { name: '升年级' }));
      const title = (await screen.findAllByText('升年级：2026级 (初一)')).at(-1)!;
      await userEvent.click(within(title.closest<HTMLElement>('[role="dialog"]')!).getByText('确认升级').closest('button')!);

      // 学年与班级 itself shows the new name (the page reloads the structure)...
      await waitFor(() => expect(screen.getByText('初二(1)班')).toBeInTheDocument());
      // ...and so do the sections that list school years.
      await waitFor(() => expect(within(ranks).getByText('2026级 (初二)')).toBeInTheDocument());
      expect(within(ranks).queryByText('2026级 (初一)')).toBeNull();
      await waitFor(() => expect(within(lines).getByText('2026级 (初二)')).toBeInTheDocument());
      expect(within(lines).queryByText('2026级 (初一)')).toBeNull();
    },
  );
});
