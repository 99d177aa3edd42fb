import { Button, Empty } from '@douyinfe/semi-ui-19';
import { useNavigate } from 'react-router-dom';
import { MESSAGES } from '../../../shared/contract/envelope';
import styles from './page-frame.module.css';
import { Illustration } from '../../../shared/ui/illustration';

export function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <main className={styles.frame}>
      <Empty
        image={<Illustration name="NotFound" style={{ width: 150, height: 150 }} />}
        title="页面不存在"
        description={MESSAGES.notFound}
      >
        <Button theme="solid" onClick={() => navigate('/')}>
          返回首页
        </Button>
      </Empty>
    </main>
  );
}
