import { Link } from 'react-router-dom';
import styles from './site-footer.module.css';

const PRODUCT_LINES = ['智慧作业系统', '理科考试系统', '宿舍睡眠系统'];
const SUPPORT = ['软件更新', '硬件服务', '7×24 小时售后响应'];
export const FILING_NUMBER = '京ICP备2026000001号-1';

/** The footer (spec §1): product lines, support, /aboutUs, copyright and filing number. */
export function SiteFooter() {
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
        <span>{FILING_NUMBER}</span>
      </p>
    </footer>
  );
}
