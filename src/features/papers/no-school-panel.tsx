/**
 * What a teacher who belongs to no school sees instead of the homework list or the composer: homework,
 * papers and the question bank all live in a school, so the page says so and shows the two ways in
 * (create a school, or join one with an invitation link or code) instead of failing its requests.
 */
import { Button, Empty, Space } from '@douyinfe/semi-ui-19';
import { useNavigate } from 'react-router-dom';
import styles from './pages/paperlist-page.module.css';
import { Illustration } from '../../shared/ui/illustration';

/** Where a school is created (the school settings page) and where an invitation is accepted. */
export const CREATE_SCHOOL_PATH = '/team/details';
export const JOIN_SCHOOL_PATH = '/invite';

export function NoSchoolPanel() {
  const navigate = useNavigate();
  return (
    <main className={styles.page}>
      <Empty
        image={<Illustration name="Construction" style={{ width: 150, height: 150 }} />}
        title="您还没有加入学校"
        description={
          <>
            <p>作业、试卷和题库都属于学校，加入学校后才能组卷、布置和批改作业。</p>
            <p>您可以创建一所学校（成为学校管理员，再邀请同事加入），或打开同事发给您的邀请链接、输入邀请码加入学校。</p>
          </>
        }
        className={styles.empty}
      >
        <Space wrap>
          <Button theme="solid" onClick={() => navigate(CREATE_SCHOOL_PATH)}>
            创建学校
          </Button>
          <Button onClick={() => navigate(JOIN_SCHOOL_PATH)}>使用邀请链接或邀请码加入</Button>
        </Space>
      </Empty>
    </main>
  );
}
