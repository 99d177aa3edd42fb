import { Button, Modal, TabPane, Tabs, Typography } from '@douyinfe/semi-ui-19';
import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { useLoginBox, type LoginTab } from './login-box.store';
import styles from './login-box.module.css';
import { PasswordLoginForm, RegisterForm, ResetPasswordForm, SmsLoginForm } from './login-forms';
import { useSession } from './use-session';

/** The login panel: password, SMS and registration tabs, and password reset. Used by the box and /login. */
export function LoginPanel() {
  const { tab, setTab } = useLoginBox();
  if (tab === 'reset') {
    return (
      <div>
        <Typography.Title heading={5} className={styles.resetTitle}>
          找回密码
        </Typography.Title>
        <ResetPasswordForm onDone={() => setTab('password')} />
        <Button theme="borderless" onClick={() => setTab('password')} className={styles.link}>
          返回登录
        </Button>
      </div>
    );
  }
  return (
    <div>
      <Tabs activeKey={tab} onChange={(key) => setTab(key as LoginTab)} type="line" keepDOM={false}>
        <TabPane tab="密码登录" itemKey="password">
          <PasswordLoginForm />
          <Button theme="borderless" onClick={() => setTab('reset')} className={styles.link}>
            忘记密码？
          </Button>
        </TabPane>
        <TabPane tab="短信登录" itemKey="sms">
          <SmsLoginForm />
        </TabPane>
        <TabPane tab="注册" itemKey="register">
          <RegisterForm />
        </TabPane>
      </Tabs>
      <Typography.Text type="tertiary" size="small" className={styles.agreement}>
        登录即表示同意 <Link to="/protocol">《用户协议》</Link>
      </Typography.Text>
    </div>
  );
}

/**
 * The login box opened by 注册/登录. Page scrolling is hidden while it is open (spec §4): Semi's Modal
 * locks the body's scrolling itself and restores it on close. `ready` false keeps it closed while it is
 * first mounted (Semi's Modal must mount closed to open).
 */
export function LoginBox({ ready = true }: { ready?: boolean }) {
  const { open, close } = useLoginBox();
  const { loggedIn } = useSession();

  useEffect(() => {
    if (loggedIn) close();
  }, [loggedIn, close]);

  return (
    <Modal
      title="欢迎使用智慧作业"
      visible={open && ready}
      onCancel={close}
      footer={null}
      width={420}
      lazyRender
      keepDOM={false}
      centered
    >
      <LoginPanel />
    </Modal>
  );
}
