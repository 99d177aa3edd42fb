import { LoginPanel } from '../login-box';
import styles from './login-page.module.css';

/** /login: the login panel on a page of its own. */
export function LoginPage() {
  return (
    <main className={styles.page}>
      <div className={styles.card}>
        <h1 className={styles.title}>
          <img src="/favicon.svg" alt="" width={28} height={28} /> 登录智慧作业
        </h1>
        <LoginPanel />
      </div>
    </main>
  );
}
