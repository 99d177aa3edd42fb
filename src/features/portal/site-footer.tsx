import { Link } from 'react-router-dom';
import { useRemote } from '../../shared/ui/use-remote';
import { usePortalServices } from './portal-services';
import styles from './site-footer.module.css';
import { useSession } from './use-session';

const PRODUCT_LINES = ['智慧作业系统', '理科考试系统', '宿舍睡眠系统'];
const SUPPORT = ['软件更新', '硬件服务', '7×24 小时售后响应'];

/**
 * The filing number (备案号) the footer shows: the user's school's, set in 学校设置, or the site's
 * (FILING_NUMBER, from GET /api/config) when logged out or the school sets none.
 */
export function useFilingNumber(): string {
  const { http, filingNumber = '' } = usePortalServices();
  const { user } = useSession();
  const orgId = user?.userGradeInfo.orgDefaultId ?? null;
  const school = useRemote(orgId ? `filing:${orgId}` : null, () =>
    http.get<{ filingNumber?: unknown }>(`/api/org/schools/${orgId ?? 0}`, undefined, { silent: true }),
  );
  const own = orgId && typeof school.data?.filingNumber === 'string' ? school.data.filingNumber : '';
  return own || filingNumber;
}

/**
 * The footer (spec §1): product lines, support, /aboutUs, copyright and filing number; `compact`: the same
 * on one line, for a page that fills the viewport (the projected large screen).
 */
export function SiteFooter({ compact = false }: { compact?: boolean }) {
  const filingNumber = useFilingNumber();
  if (compact) {
    return (
      <footer className={`${styles.footer} ${styles.compact}`}>
        <span>产品体系：{PRODUCT_LINES.join(' · ')}</span>
        <span>服务支持：{SUPPORT.join(' · ')}</span>
        <Link to="/aboutUs">关于我们</Link>
        <Link to="/protocol">用户协议</Link>
        <span>© {new Date().getFullYear()} 智慧作业 版权所有</span>
        {filingNumber ? <span data-testid="filing-number">{filingNumber}</span> : null}
      </footer>
    );
  }
  return (
    <footer className={styles.footer}>
      <div className={styles.columns}>
        <section>
          <h3>产品体系</h3>
          <ul>
            {PRODUCT_LINES.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </section>
        <section>
          <h3>服务支持</h3>
          <ul>
            {SUPPORT.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </section>
        <section>
          <h3>了解我们</h3>
          <ul>
            <li>
              <Link to="/aboutUs">关于我们</Link>
            </li>
            <li>
              <Link to="/protocol">用户协议</Link>
            </li>
          </ul>
        </section>
      </div>
      <p className={styles.legal}>
        <span>© {new Date().getFullYear()} 智慧作业 版权所有</span>
        {filingNumber ? <span data-testid="filing-number">{filingNumber}</span> : null}
      </p>
    </footer>
  );
}
