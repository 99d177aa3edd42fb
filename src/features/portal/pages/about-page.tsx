import { PageFrame } from './page-frame';

/** /aboutUs */
export function AboutPage() {
  return (
    <PageFrame title="关于我们" narrow>
      <p>
        智慧作业为中小学提供从组卷、打印、扫描、识别阅卷到学情分析、作业讲评和错题重练的一体化作业系统，让老师把时间花在教学上，让每位学生练自己真正需要练的题。
      </p>
      <h4>产品体系</h4>
      <ul>
        <li>智慧作业系统：作业布置、答题卡扫描阅卷与学情分析</li>
        <li>理科考试系统：理化生实验与考试管理</li>
        <li>宿舍睡眠系统：住校生作息与宿舍管理</li>
      </ul>
      <h4>服务支持</h4>
      <ul>
        <li>软件更新：持续迭代，免费升级</li>
        <li>硬件服务：扫描仪、大屏等设备的安装与维护</li>
        <li>7×24 小时售后响应</li>
      </ul>
    </PageFrame>
  );
}
