import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadLoginBox, resetLoginBoxLoader, type LoginBoxComponent } from '../../../src/features/portal/login-box-loader';
import { useLoginBox } from '../../../src/features/portal/login-box.store';
import { PortalLayout } from '../../../src/features/portal/portal-layout';
import { renderPortal } from './portal-test-kit';

/** The login box's chunk arrives when the test says, or fails once. */
const chunk = vi.hoisted(() => {
  const state = { release: () => {}, failNext: false, arrived: Promise.resolve() };
  const hold = () => {
    state.arrived = new Promise<void>((resolve) => (state.release = resolve));
  };
  hold();
  return { state, hold };
});

vi.mock('../../../src/features/portal/login-box', async (importOriginal) => {
  await chunk.state.arrived;
  return importOriginal();
});

beforeEach(() => {
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  resetLoginBoxLoader();
});
afterEach(() => {
  act(() => useLoginBox.getState().close());
});

describe('the login box on a first view (its code loads later)', () => {
  it('opens on a click made while its code is still on its way', async () => {
    chunk.hold();
    renderPortal(<PortalLayout />, { user: null, path: '/' });
    act(() => useLoginBox.getState().show('register'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await act(async () => chunk.state.release());
    const dialog = await screen.findByRole('dialog', {}, { timeout: 3000 });
    expect(dialog).toHaveTextContent('欢迎使用智慧作业');
    expect(useLoginBox.getState()).toMatchObject({ open: true, tab: 'register' });
  });

  it('opens when the click and the code arrive together', async () => {
    chunk.hold();
    renderPortal(<PortalLayout />, { user: null, path: '/' });
    await act(async () => {
      chunk.state.release();
      useLoginBox.getState().show('password');
      await chunk.state.arrived;
    });
    expect(await screen.findByRole('dialog', {}, { timeout: 3000 })).toBeInTheDocument();
  });
});

describe('the login box loader', () => {
  const Box: LoginBoxComponent = () => <div />;

  it('fetches once for every caller', async () => {
    const load = vi.fn(async () => ({ LoginBox: Box }));
    const [a, b] = await Promise.all([loadLoginBox(load), loadLoginBox(load)]);
    expect(a).toBe(Box);
    expect(b).toBe(Box);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tries again after a failed fetch (a chunk gone after a deploy)', async () => {
    const load = vi
      .fn<() => Promise<{ LoginBox: LoginBoxComponent }>>()
      .mockRejectedValueOnce(new Error('Failed to fetch dynamically imported module'))
      .mockResolvedValue({ LoginBox: Box });
    await expect(loadLoginBox(load)).rejects.toThrow('Failed to fetch');
    await expect(loadLoginBox(load)).resolves.toBe(Box);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
