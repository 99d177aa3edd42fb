import { Button, Empty } from '@douyinfe/semi-ui-19';
import { useNavigate } from 'react-router-dom';
import { PageFrame } from './page-frame';
import { Illustration } from '../../../shared/ui/illustration';

/** A route of the spec whose feature is not built yet: it says so plainly. */
export function PendingPage({ title }: { title: string }) {
  const navigate = useNavigate();
  return (
    <PageFrame title={title}>
      <Empty
        image={<Illustration name="Construction" style={{ width: 150, height: 150 }} />}
        title="该功能暂未开放"
        description={`「${title}」正在建设中，当前版本还不能使用。`}
      >
        <Button onClick={() => navigate('/paperlist')}>返回作业列表</Button>
      </Empty>
    </PageFrame>
  );
}
