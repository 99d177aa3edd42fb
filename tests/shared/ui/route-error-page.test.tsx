import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { teacherRoutes } from '../../../entries/teacher-routes';
import { PageError } from '../../../src/shared/ui/page-error';
import { RouteErrorPage } from '../../../src/shared/ui/route-error-page';

function Crash(): never {
  throw new Error('boom');
}

describe('route error elements', () => {
  it('every portal route has an error element of its own', () => {
    const layout = teacherRoutes[0]!;
    expect(layout.errorElement).toBeTruthy();
    const pages = (layout.children ?? []).filter((route: RouteObject) => route.path !== '*' && route.element);
    expect(pages.length).toBeGreaterThan(10);
    for (const route of pages) {
      if ((route.element as { type?: { name?: string } }).type?.name === 'Navigate') continue;
      expect(route.errorElement, route.path).toBeTruthy();
    }
  });

  it('a crashing page shows a Chinese message with a way back instead of the English default screen', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const router = createMemoryRouter([{ path: '/', element: <Crash />, errorElement: <RouteErrorPage /> }]);
    render(<RouterProvider router={router} />);
    expect(screen.getByRole('alert')).toHaveTextContent('页面出错了');
    expect(screen.getByRole('button', { name: '重试' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '返回首页' })).toBeInTheDocument();
    expect(screen.queryByText(/Unexpected Application Error/)).not.toBeInTheDocument();
  });

  it('a page whose code cannot be fetched after a deploy offers to reload', () => {
    const error = new TypeError('Failed to fetch dynamically imported module: /assets/edit-page-abc.js');
    render(<PageError error={error} />);
    expect(screen.getByRole('alert')).toHaveTextContent('页面加载失败');
    expect(screen.getByRole('button', { name: '重新加载' })).toBeInTheDocument();
  });
});
