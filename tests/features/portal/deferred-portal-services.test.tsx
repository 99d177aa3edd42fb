/**
 * The teacher entry's deferred services: the portal's frame and the landing page run without the session
 * runtime, a component that reads the services waits for them (fetching them once), and a failed fetch
 * is tried again on the next need.
 */
import { act, render, screen } from '@testing-library/react';
import { type ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PortalLayout } from '../../../src/features/portal/portal-layout';
import {
  deferPortalServices,
  PortalServicesProvider,
  usePortalServices,
  type PortalServices,
} from '../../../src/features/portal/portal-services';

beforeEach(() => {
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});

function fakeServices(): PortalServices {
  const snapshot = { hasTag: () => true, matches: () => false, context: { session: null, error: null } };
  const session = { subscribe: () => ({ unsubscribe: () => undefined }), getSnapshot: () => snapshot };
  return { imageBaseUrl: '/files/from-runtime/', session } as unknown as PortalServices;
}

function ReadsServices() {
  const { imageBaseUrl } = usePortalServices();
  return <p>图片地址 {imageBaseUrl}</p>;
}

/** Rendered inside an awaited act(): a use() that suspended pings its retry through act's queue in tests. */
async function renderInAct(ui: ReactNode) {
  let view: ReturnType<typeof render> | undefined;
  await act(async () => {
    view = render(ui);
  });
  return view!;
}

function renderPortalAt(path: string, services: ReturnType<typeof deferPortalServices>) {
  return renderInAct(
    <PortalServicesProvider services={services}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route element={<PortalLayout />}>
            <Route path="/" element={<h1>落地页</h1>} />
            <Route path="/aboutUs" element={<ReadsServices />} />
          </Route>
        </Routes>
      </MemoryRouter>
    </PortalServicesProvider>,
  );
}

describe('deferred portal services', () => {
  it('shows the landing page to a visitor without a session without fetching the session runtime', async () => {
    const load = vi.fn(() => Promise.resolve(fakeServices()));
    await renderPortalAt(
      '/',
      deferPortalServices(load, () => false),
    );
    expect(await screen.findByRole('heading', { name: '落地页' })).toBeInTheDocument();
    expect(load).not.toHaveBeenCalled();
  });

  it('holds a page that reads the services on the loading state until they arrive, fetching them once', async () => {
    let resolve: (services: PortalServices) => void = () => undefined;
    const load = vi.fn(() => new Promise<PortalServices>((done) => (resolve = done)));
    const services = deferPortalServices(load, () => true);
    await renderPortalAt('/aboutUs', services);
    expect(await screen.findByText('页面加载中…')).toBeInTheDocument();
    await act(async () => resolve(fakeServices()));
    expect(await screen.findByText('图片地址 /files/from-runtime/')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
    expect(services.current()?.imageBaseUrl).toBe('/files/from-runtime/');
  });

  it('forgets a failed fetch (a chunk gone after a deploy), so the next need tries again', async () => {
    const arrived = fakeServices();
    const load = vi
      .fn<() => Promise<PortalServices>>()
      .mockRejectedValueOnce(new Error('chunk gone'))
      .mockResolvedValueOnce(arrived);
    const services = deferPortalServices(load, () => true);
    await expect(services.load()).rejects.toThrow('chunk gone');
    expect(services.current()).toBeNull();
    await expect(services.load()).resolves.toBe(arrived);
    expect(services.current()).toBe(arrived);
    await services.load();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
