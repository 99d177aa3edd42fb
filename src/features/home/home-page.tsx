import { Typography } from '@douyinfe/semi-ui';

/** The public landing page. */
export function HomePage() {
  return (
    <main style={{ padding: '64px 24px', textAlign: 'center' }}>
      <Typography.Title heading={1}>智慧作业</Typography.Title>
      <Typography.Paragraph>组卷、扫描、阅卷、学情分析与错题重练，一站完成。</Typography.Paragraph>
    </main>
  );
}
