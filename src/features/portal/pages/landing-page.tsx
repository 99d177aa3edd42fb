import { Button } from '@douyinfe/semi-ui-19';
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { preloadLoginBox } from '../login-box-loader';
import { useLoginBox } from '../login-box.store';

/** The login box's code starts on its way as soon as a pointer or the keyboard reaches a button that opens it. */
const preload = { onPointerEnter: preloadLoginBox, onFocus: preloadLoginBox };
import styles from './landing-page.module.css';

const FEATURES = [
  { title: '组卷', text: '按章节、知识点、题型和难度从题库选题，拖拽排序，一键生成试卷与答题卡。' },
  { title: '扫描', text: '扫描站批量扫描答题卡，断网、重启也不丢一页，进度实时可见。' },
  { title: '阅卷', text: '客观题自动识别判分，主观题按题分配、双评仲裁，键盘快捷打分。' },
  { title: '学情分析', text: '年级、班级、学生三级学情，得分率、区分度与知识点掌握一目了然。' },
  { title: '作业讲评', text: '课堂投屏讲评，典型错答与高频错题自动汇总。' },
  { title: '错题重练', text: '为每位学生生成个性化错题与同类题练习，举一反三。' },
];

const STEPS = ['组卷布置', '打印答题卡', '扫描上传', '识别阅卷', '学情分析', '错题重练'];

/** The public landing page (/): what the product does, and the way in. */
export function LandingPage() {
  const show = useLoginBox((state) => state.show);
  const location = useLocation();
  const redirectedFrom = (location.state as { from?: string } | null)?.from;

  // A visitor sent here from a private page is asked to log in straight away.
  useEffect(() => {
    if (redirectedFrom) show('password');
  }, [redirectedFrom, show]);

  return (
    <div className={styles.landing}>
      <header className={styles.header}>
        <span className={styles.brand}>
          <img src="/favicon.svg" alt="" width={32} height={32} />
          智慧作业
        </span>
        <Button theme="solid" {...preload} onClick={() => show('password')}>
          注册/登录
        </Button>
      </header>

      <section className={styles.hero}>
        {/* A plain heading: Semi's Typography brings Tooltip and Popover (about 20 KiB gz) into the first view. */}
        <h1 className={styles.heroTitle}>智慧作业</h1>
        <p className={styles.heroText}>从组卷到错题重练，一套系统完成作业的全部流程。让老师少批改，让学生练得准。</p>
        <div className={styles.heroActions}>
          <Button size="large" theme="solid" {...preload} onClick={() => show('password')}>
            立即登录
          </Button>
          <Button size="large" {...preload} onClick={() => show('register')}>
            免费注册
          </Button>
        </div>
        <ol className={styles.steps} aria-label="使用流程">
          {STEPS.map((step, index) => (
            <li key={step}>
              <span>{index + 1}</span>
              {step}
            </li>
          ))}
        </ol>
      </section>

      <section className={styles.features} aria-label="产品功能">
        {FEATURES.map((feature) => (
          <article key={feature.title} className={styles.card}>
            <h2>{feature.title}</h2>
            <p>{feature.text}</p>
          </article>
        ))}
      </section>

      <p className={styles.legal}>© {new Date().getFullYear()} 智慧作业 版权所有</p>
    </div>
  );
}
