import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { LoginBox } from '../../../src/features/portal/login-box';
import { useLoginBox } from '../../../src/features/portal/login-box.store';
import { renderPortal } from './portal-test-kit';

afterEach(() => {
  act(() => useLoginBox.getState().close());
});

describe('the login box', () => {
  // Restoring happens after the closing animation, which jsdom never plays: the browser test checks it.
  it('hides page scrolling while it is open', async () => {
    renderPortal(<LoginBox />, { user: null, path: '/' });
    act(() => useLoginBox.getState().show());
    await screen.findByRole('dialog');
    expect(document.body.style.overflow).toBe('hidden');
  });

  it('shows the spec messages for an empty password login', async () => {
    renderPortal(<LoginBox />, { user: null, path: '/' });
    act(() => useLoginBox.getState().show('password'));
    await userEvent.click(await screen.findByRole('button', { name: '登录' }));
    expect(await screen.findByText('请输入用户名')).toBeInTheDocument();
    expect(screen.getByText('请输入密码')).toBeInTheDocument();
    expect(screen.getByText('请输入图形验证码')).toBeInTheDocument();
  });

  it('validates the username when it loses focus', async () => {
    renderPortal(<LoginBox />, { user: null, path: '/' });
    act(() => useLoginBox.getState().show('password'));
    const username = await screen.findByRole('textbox', { name: /用户名/ });
    await userEvent.click(username);
    await userEvent.tab();
    expect(await screen.findByText('请输入用户名')).toBeInTheDocument();
  });

  it('asks for a valid mobile and the SMS code on the SMS form, without marking the code required', async () => {
    renderPortal(<LoginBox />, { user: null, path: '/' });
    act(() => useLoginBox.getState().show('sms'));
    await userEvent.type(await screen.findByRole('textbox', { name: /手机号/ }), '12345');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByText('请输入正确的手机号码')).toBeInTheDocument();
    expect(
      screen.getByText('请输入短信验证码', { selector: '.semi-form-field-error-message, .semi-form-field-error-message *' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /短信验证码/ })).not.toHaveAttribute('aria-required', 'true');
  });

  it('refuses a registration whose passwords differ', async () => {
    renderPortal(<LoginBox />, { user: null, path: '/' });
    act(() => useLoginBox.getState().show('register'));
    await userEvent.type(await screen.findByLabelText(/^密码/), 'Abcdef123');
    await userEvent.type(screen.getByLabelText(/确认密码/), 'Abcdef124');
    await userEvent.click(screen.getByRole('button', { name: '注册并登录' }));
    expect(await screen.findByText('两次输入的密码不一致')).toBeInTheDocument();
    expect(screen.getByText('请输入昵称')).toBeInTheDocument();
  });

  it('warns of the attempts left before the lock under the password form', async () => {
    renderPortal(<LoginBox />, { user: null, path: '/', loginError: '用户名或密码错误，还可尝试 2 次' });
    act(() => useLoginBox.getState().show('password'));
    await userEvent.type(await screen.findByRole('textbox', { name: /用户名/ }), 'teacher');
    await userEvent.type(screen.getByLabelText('密码', { exact: true }), 'Wrong@2026');
    await userEvent.type(screen.getByRole('textbox', { name: /图形验证码/ }), 'ABCD');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('用户名或密码错误，还可尝试 2 次');
  });
});
