/**
 * 学年与班级 of 学校设置: 升年级 (and renaming or archiving) of the school year the user works in hands
 * the session the user as the server now answers it, so the top bar shows the new name without a reload.
 */
import { Modal } from '@douyinfe/semi-ui-19';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SchoolStructurePanel } from '../../../src/features/team/school-structure-panel';
import { TeamServicesProvider } from '../../../src/features/team/team-services';
import type { HttpClient } from '../../../src/shared/adapters/http-client';
import type { SchoolStructure } from '../../../src/shared/contract/org';
import { makeUser } from '../portal/portal-test-kit';

const structure: SchoolStructure = {
  schoolYears: [
    { id: 1, name: '2026级 (初一)', archived: false, classes: [{ id: 4, name: '初一(1)班', archived: false }] },
    { id: 2, name: '2025级 (初二)', archived: false, classes: [{ id: 8, name: '初二(1)班', archived: false }] },
  ],
  subjects: [],
};

function renderPanel() {
  const promoted = makeUser({ classDefaultName: '2026级 (初二)' });
  const http = {
    get: vi.fn(async (url: string) => {
      if (url === '/api/user/info') return promoted;
      throw new Error(`unexpected ${url}`);
    }),
    postJson: vi.fn(async (url: string) => {
      if (url.endsWith('/promote')) return { name: '2026级 (初二)', graduated: false };
      throw new Error(`unexpected post to ${url}`);
    }),
  } as unknown as HttpClient;
  const onUserChanged = vi.fn();
  const onChanged = vi.fn();
  render(
    <TeamServicesProvider
      services={{ http, user: makeUser(), loggedIn: true, onUserChanged, showLogin: vi.fn(), imageBaseUrl: '/files/' }}
    >
      <SchoolStructurePanel orgId={1} structure={structure} canManage onChanged={onChanged} />
    </TeamServicesProvider>,
  );
  return { http, onUserChanged, onChanged, promoted };
}

async function promote(yearName: string) {
  const head = screen.getByText(yearName).closest<HTMLElement>('div')!;
  await userEvent.click(within(head).getByRole('button', { name: '升年级' }));
  // The confirm dialog of this school year (one left over from an earlier test may still be closing).
  const title = (await screen.findAllByText(`升年级：${yearName}`)).at(-1)!;
  const confirm = title.closest<HTMLElement>('[role="dialog"]')!;
  await userEvent.click(within(confirm).getByText('确认升级').closest('button')!);
}

afterEach(() => Modal.destroyAll());

describe('升年级 in 学校设置', () => {
  it('refreshes the session user when the default school year is promoted', async () => {
    const { http, onUserChanged, onChanged, promoted } = renderPanel();
    await promote('2026级 (初一)');
    await waitFor(() => expect(onUserChanged).toHaveBeenCalledWith(promoted));
    expect(http.postJson).toHaveBeenCalledWith('/api/org/schools/1/school-years/1/promote', {}, expect.anything());
    expect(onChanged).toHaveBeenCalled();
  });

  it('leaves the session alone when another school year is promoted', async () => {
    const { http, onUserChanged, onChanged } = renderPanel();
    await promote('2025级 (初二)');
    await waitFor(() => expect(onChanged).toHaveBeenCalled());
    expect(http.postJson).toHaveBeenCalledWith('/api/org/schools/1/school-years/2/promote', {}, expect.anything());
    expect(http.get).not.toHaveBeenCalled();
    expect(onUserChanged).not.toHaveBeenCalled();
  });
});
