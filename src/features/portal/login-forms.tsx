/**
 * The forms of the login box: password login (with image captcha), SMS login, registration and password
 * reset. Submitting a login sends `session.login` to the session machine; the machine does the rest.
 */
import { Button, Form, Toast } from '@douyinfe/semi-ui-19';
import type { FormApi } from '@douyinfe/semi-ui-19/lib/es/form/interface';
import { useCallback, useEffect, useRef, useState } from 'react';
import { FORM_MESSAGES } from '../../shared/contract/auth';
import { resetPassword } from './account-api';
import { CaptchaImage } from './captcha-image';
import { MobileField, NewPasswordFields } from './form-fields';
import { captchaRules, nicknameRules, passwordRules, usernameRules, validateSmsCode } from './form-rules';
import styles from './login-box.module.css';
import { usePortalServices } from './portal-services';
import { SmsCodeButton } from './sms-code-button';
import { useBusyAction } from './use-busy-action';
import { useSession } from './use-session';

type Values = Record<string, string | undefined>;
const text = (values: Values, key: string) => (values[key] ?? '').trim();

/** Counts failed logins so the captcha (single use) is replaced after each one. */
function useFailedLoginCount(): number {
  const { loggingIn, error } = useSession();
  const [failures, setFailures] = useState(0);
  const wasLoggingIn = useRef(false);
  useEffect(() => {
    if (wasLoggingIn.current && !loggingIn && error) setFailures((value) => value + 1);
    wasLoggingIn.current = loggingIn;
  }, [loggingIn, error]);
  return failures;
}

/** The server's answer to a wrong password that counts towards the lock: attempts left, or locked. */
const LOCKOUT_WARNING = /还可尝试 \d+ 次|账号已锁定/;

export function PasswordLoginForm() {
  const { login, loggingIn, error } = useSession();
  const failures = useFailedLoginCount();
  const [captchaKey, setCaptchaKey] = useState('');
  const formApi = useRef<FormApi<Values> | null>(null);
  const onKey = useCallback((key: string) => {
    setCaptchaKey(key);
    formApi.current?.setValue('captcha', '');
  }, []);

  return (
    <Form<Values>
      getFormApi={(api) => (formApi.current = api)}
      onSubmit={(values) =>
        login({
          kind: 'password',
          grant: {
            grant_type: 'password',
            username: text(values, 'username'),
            password: values.password ?? '',
            captchaKey,
            captcha: text(values, 'captcha'),
          },
        })
      }
      labelPosition="top"
      aria-label="密码登录"
    >
      <Form.Input
        field="username"
        label="用户名"
        placeholder="用户名或手机号"
        rules={usernameRules}
        trigger="blur"
        autoComplete="username"
      />
      <Form.Input
        field="password"
        label="密码"
        mode="password"
        placeholder="密码"
        rules={passwordRules}
        trigger="change"
        autoComplete="current-password"
      />
      <div className={styles.captchaRow}>
        <Form.Input field="captcha" label="图形验证码" placeholder="图形验证码" rules={captchaRules} autoComplete="off" />
        <CaptchaImage onKey={onKey} refreshSignal={failures} />
      </div>
      {!loggingIn && error && LOCKOUT_WARNING.test(error) ? (
        <div role="alert" className={styles.lockoutWarning}>
          {error}
        </div>
      ) : null}
      <Button htmlType="submit" theme="solid" block loading={loggingIn} className={styles.submit}>
        登录
      </Button>
    </Form>
  );
}

export function SmsLoginForm() {
  const { login, loggingIn } = useSession();
  const formApi = useRef<FormApi<Values> | null>(null);
  return (
    <Form<Values>
      getFormApi={(api) => (formApi.current = api)}
      onSubmit={(values) =>
        login({ kind: 'sms', grant: { grant_type: 'sms', mobile: text(values, 'mobile'), smsCode: text(values, 'smsCode') } })
      }
      labelPosition="top"
      aria-label="短信登录"
    >
      <MobileField placeholder="手机号" />
      <SmsCodeRow purpose="login" formApi={formApi} />
      <Button htmlType="submit" theme="solid" block loading={loggingIn} className={styles.submit}>
        登录
      </Button>
    </Form>
  );
}

function SmsCodeRow({
  purpose,
  formApi,
}: {
  purpose: 'login' | 'register' | 'reset' | 'bind';
  formApi: React.RefObject<FormApi<Values> | null>;
}) {
  return (
    <div className={styles.captchaRow}>
      <Form.Input
        field="smsCode"
        label="短信验证码"
        placeholder={FORM_MESSAGES.smsCode}
        validate={validateSmsCode}
        autoComplete="one-time-code"
      />
      <SmsCodeButton
        purpose={purpose}
        getMobile={() => formApi.current?.getValue('mobile') ?? ''}
        onInvalidMobile={(message) => formApi.current?.setError('mobile', message)}
      />
    </div>
  );
}

export function RegisterForm() {
  const { login, loggingIn } = useSession();
  const formApi = useRef<FormApi<Values> | null>(null);
  return (
    <Form<Values>
      getFormApi={(api) => (formApi.current = api)}
      onSubmit={(values) =>
        login({
          kind: 'register',
          form: {
            nickname: text(values, 'nickname'),
            mobile: text(values, 'mobile'),
            smsCode: text(values, 'smsCode'),
            password: values.password ?? '',
            password2: values.password2 ?? '',
          },
        })
      }
      labelPosition="top"
      aria-label="注册"
    >
      <Form.Input field="nickname" label="昵称" placeholder="老师的称呼，如：王老师" rules={nicknameRules} />
      <MobileField placeholder="手机号" />
      <SmsCodeRow purpose="register" formApi={formApi} />
      <NewPasswordFields />
      <Button htmlType="submit" theme="solid" block loading={loggingIn} className={styles.submit}>
        注册并登录
      </Button>
    </Form>
  );
}

export function ResetPasswordForm({ onDone }: { onDone: () => void }) {
  const { http } = usePortalServices();
  const [saving, run] = useBusyAction();
  const formApi = useRef<FormApi<Values> | null>(null);
  const submit = (values: Values) =>
    run(async () => {
      await resetPassword(http, {
        mobile: text(values, 'mobile'),
        smsCode: text(values, 'smsCode'),
        password: values.password ?? '',
        password2: values.password2 ?? '',
      });
      Toast.success('密码已重置，请用新密码登录');
      onDone();
    });
  return (
    <Form<Values> getFormApi={(api) => (formApi.current = api)} onSubmit={submit} labelPosition="top" aria-label="找回密码">
      <MobileField placeholder="注册时的手机号" />
      <SmsCodeRow purpose="reset" formApi={formApi} />
      <NewPasswordFields newLabel />
      <Button htmlType="submit" theme="solid" block loading={saving} className={styles.submit}>
        重置密码
      </Button>
    </Form>
  );
}
