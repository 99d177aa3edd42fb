import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TopBar } from '../../../src/features/portal/top-bar';
import { makeUser, renderPortal } from './portal-test-kit';

describe('the top bar', () => {
  it('shows a teacher the three basic menu items and no data centre', () => {
    renderPortal(<TopBar />);
    for (const text of ['作业列表', '学情分析', '错题重练']) expect(screen.getByText(text)).toBeInTheDocument();
    expect(screen.queryByText('数据中心')).not.toBeInTheDocument();
  });

  it('gives a grade director the data centre group', () => {
    renderPortal(<TopBar />, { user: makeUser({ gradeDirector: true }, '李主任') });
    expect(screen.getByText('数据中心')).toBeInTheDocument();
  });

  it('shows 暂无默认学年 and refuses to open scanning without a school year', async () => {
    renderPortal(<TopBar />, { user: makeUser({ classDefaultId: null, classDefaultName: null }) });
    // The picker loads on demand (lazily) with the first logged-in view.
    expect(await screen.findByText('暂无默认学年')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '扫描' }));
    expect(await screen.findByText('请选择学年后再进行扫描')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: '当前地址' })).toHaveTextContent('/paperlist');
  });

  it("shows the school year in a closed box and opens the real dropdown, with the school's years, on a click", async () => {
    renderPortal(<TopBar />, {
      schoolYears: [
        { id: 1, name: '2026级 (初一)' },
        { id: 2, name: '2025级 (初二)' },
      ],
    });
    const picker = await screen.findByRole('group', { name: '选择学年' });
    expect(picker).toHaveTextContent('2026级 (初一)');
    // Semi's Select is not loaded until the teacher reaches for it.
    expect(picker.querySelector('.semi-select')).toBeNull();
    await userEvent.click(screen.getByRole('combobox'));
    // Open at once, with the list the click asked for.
    expect(await screen.findByText('2025级 (初二)')).toBeInTheDocument();
    expect(screen.getAllByRole('option')).toHaveLength(2);
    expect(picker.querySelector('.semi-select')).not.toBeNull();
  });

  it('shows the new school-year name once 升年级 on this page hands the session the updated user', async () => {
    const { session } = renderPortal(<TopBar />, {
      schoolYears: [{ id: 1, name: '2026级 (初一)' }],
      // Chosen earlier on this browser: the stored choice has the old name too.
      gradeInfo: { id: 1, name: '2026级 (初一)' },
    });
    expect(await screen.findByText('2026级 (初一)')).toBeInTheDocument();
    act(() => session.send({ type: 'user.updated', user: makeUser({ classDefaultName: '2026级 (初二)' }) }));
    expect(await screen.findByText('2026级 (初二)')).toBeInTheDocument();
    expect(screen.queryByText('2026级 (初一)')).not.toBeInTheDocument();
  });

  it('shows the school year of a school created on this page', async () => {
    const { session } = renderPortal(<TopBar />, {
      user: makeUser({ orgDefaultId: null, classDefaultId: null, classDefaultName: null }),
    });
    expect(await screen.findByText('暂无默认学年')).toBeInTheDocument();
    act(() => session.send({ type: 'user.updated', user: makeUser({ classDefaultId: 7, classDefaultName: '2027级' }) }));
    expect(await screen.findByText('2027级')).toBeInTheDocument();
  });

  it('opens scanning when a school year is chosen', async () => {
    renderPortal(<TopBar />);
    await userEvent.click(screen.getByRole('button', { name: '扫描' }));
    expect(screen.getByRole('status', { name: '当前地址' })).toHaveTextContent('/scan');
  });

  it('links 学校设置 to the default school with isCreator, and only when there is a default school', async () => {
    renderPortal(<TopBar />, { user: makeUser({ isCreator: true }) });
    await userEvent.hover(screen.getByRole('button', { name: '账号菜单' }));
    await userEvent.click(await screen.findByText('学校设置'));
    expect(screen.getByRole('status', { name: '当前地址' })).toHaveTextContent('/team/details?orgId=1&isCreator=true');
  });

  it('hides 学校设置 without a default school', async () => {
    renderPortal(<TopBar />, { user: makeUser({ orgDefaultId: null, orgName: null }) });
    await userEvent.hover(screen.getByRole('button', { name: '账号菜单' }));
    expect(await screen.findByText('个人中心')).toBeInTheDocument();
    expect(screen.queryByText('学校设置')).not.toBeInTheDocument();
  });

  it('logs out through the session machine with 退出登录', async () => {
    const { session, signOut } = renderPortal(<TopBar />);
    await userEvent.hover(screen.getByRole('button', { name: '账号菜单' }));
    await userEvent.click(await screen.findByText('退出登录'));
    await waitFor(() => expect(session.getSnapshot().matches('loggedOut')).toBe(true));
    expect(signOut).toHaveBeenCalledTimes(1);
  });

  it('offers 注册/登录 to a visitor without a session', () => {
    renderPortal(<TopBar />, { user: null });
    expect(screen.getByRole('button', { name: '注册/登录' })).toBeInTheDocument();
    expect(screen.queryByText('作业列表')).not.toBeInTheDocument();
  });
});
