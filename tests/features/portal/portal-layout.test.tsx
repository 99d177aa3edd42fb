import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { afterLoginPath, PortalLayout } from '../../../src/features/portal/portal-layout';
import { renderPortal } from './portal-test-kit';

beforeEach(() => {
  // jsdom does not scroll; the layout scrolls to the top on each navigation.
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});

const where = () => screen.getByRole('status', { name: '当前地址' }).textContent;

describe('PortalLayout: the way back to a deep link', () => {
  it('sends a visitor without a session from a private page to /, remembering the page', async () => {
    renderPortal(<PortalLayout />, { user: null, path: '/correct?homeworkId=3' });
    expect(where()).toBe('/');
  });

  it('sends a visitor who has just logged in on / to the page asked for, not /paperList', async () => {
    renderPortal(<PortalLayout />, { path: '/', state: { from: '/correct?homeworkId=3' } });
    expect(where()).toBe('/correct?homeworkId=3');
  });

  it('sends a logged-in visitor on / without a remembered page to /paperList (spec guard)', async () => {
    renderPortal(<PortalLayout />, { path: '/' });
    expect(where()).toBe('/paperList');
  });

  it('takes only a path of this site that is not public', () => {
    expect(afterLoginPath('/edit?paperId=2')).toBe('/edit?paperId=2');
    expect(afterLoginPath('//evil.example/x')).toBe('/paperList');
    expect(afterLoginPath('https://evil.example/')).toBe('/paperList');
    expect(afterLoginPath('/\\evil.example')).toBe('/paperList');
    expect(afterLoginPath('/404')).toBe('/paperList');
    expect(afterLoginPath('/?x=1')).toBe('/paperList');
    expect(afterLoginPath(undefined)).toBe('/paperList');
  });
});

describe('PortalLayout: the footer', () => {
  it('keeps the footer on the projected large screen (the spec hides it only on /), as one line with the same content', async () => {
    renderPortal(<PortalLayout />, { path: '/largescreen' });
    const footer = await screen.findByRole('contentinfo');
    expect(footer).toHaveTextContent('产品体系：智慧作业系统 · 理科考试系统 · 宿舍睡眠系统');
    expect(footer).toHaveTextContent('服务支持：软件更新 · 硬件服务 · 7×24 小时售后响应');
    expect(footer).toHaveTextContent('版权所有');
    expect(screen.getByRole('link', { name: '关于我们' })).toHaveAttribute('href', '/aboutUs');
    // One line: no column headings.
    expect(screen.queryByRole('heading', { name: '产品体系' })).toBeNull();
  });

  it('shows the full footer on other pages', async () => {
    renderPortal(<PortalLayout />, { path: '/paperList' });
    expect(await screen.findByRole('heading', { name: '产品体系' })).toBeInTheDocument();
  });
});
