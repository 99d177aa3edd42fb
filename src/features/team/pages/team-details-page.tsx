import { IconCamera } from '@douyinfe/semi-icons';
import { Avatar, Banner, Button, Descriptions, Form, Spin, Tag, Toast, Typography } from '@douyinfe/semi-ui-19';
import { lazy, Suspense, useCallback, useRef, useState, type ChangeEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { ROLE_LABELS, SCHOOL_TYPES, type SchoolDetail, type UpdateSchool } from '../../../shared/contract/org';
import { NoSchoolPanel } from '../no-school-panel';
import { SchoolStructurePanel } from '../school-structure-panel';
import { fetchSchool, fetchStructure, updateSchool, uploadLogo } from '../team-api';
import { useTeamServices } from '../team-services';
import { useLoaded } from '../use-team-data';
import styles from '../team.module.css';

/** 各学年学科分数线: its own chunk, so the page's first view does not carry its table and inputs. */
/** 排名设置 reads the analysis contract: its own chunk too. */
const RankSettingsPanel = lazy(() => import('../rank-settings-panel').then((module) => ({ default: module.RankSettingsPanel })));
const RateLinesPanel = lazy(() => import('../rate-lines-panel').then((module) => ({ default: module.RateLinesPanel })));

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

function logoUrl(base: string, logo: string | null) {
  if (!logo) return undefined;
  return `${base.replace(/\/?$/, '/')}${logo}`;
}

function SettingsForm({ school, onSaved }: { school: SchoolDetail; onSaved: (school: SchoolDetail) => void }) {
  const { http, imageBaseUrl } = useTeamServices();
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const save = async (values: UpdateSchool) => {
    setBusy(true);
    try {
      onSaved(await updateSchool(http, school.id, values));
      Toast.success('学校设置已保存');
    } catch {
      // The HTTP client has shown the server's message.
    } finally {
      setBusy(false);
    }
  };

  const onLogo = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!IMAGE_TYPES.includes(file.type)) return void Toast.error('校徽仅支持 PNG、JPEG、WebP 或 GIF 图片');
    if (file.size > 2 * 1024 * 1024) return void Toast.error('校徽图片不能超过 2 MB');
    try {
      onSaved(await uploadLogo(http, school.id, file));
      Toast.success('校徽已更新');
    } catch {
      // Shown by the HTTP client.
    }
  };

  return (
    <>
      <div className={styles.logo}>
        <Avatar shape="square" size="large" src={logoUrl(imageBaseUrl, school.logo)} alt={school.name}>
          {school.name.slice(0, 1)}
        </Avatar>
        <input ref={input} type="file" accept={IMAGE_TYPES.join(',')} hidden onChange={onLogo} aria-label="选择校徽图片" />
        <Button icon={<IconCamera />} onClick={() => input.current?.click()}>
          更换校徽
        </Button>
      </div>
      <Form<UpdateSchool>
        labelPosition="top"
        initValues={{
          name: school.name,
          region: school.region,
          schoolType: school.schoolType as UpdateSchool['schoolType'],
          filingNumber: school.filingNumber,
          passPercent: school.passPercent,
          goodPercent: school.goodPercent,
          excellentPercent: school.excellentPercent,
          lowPercent: school.lowPercent,
        }}
        onSubmit={save}
      >
        <Form.Input field="name" label="学校名称" maxLength={40} rules={[{ required: true, message: '请输入学校名称' }]} />
        <Form.Input field="region" label="所在地区" maxLength={60} rules={[{ required: true, message: '请输入所在地区' }]} />
        <Form.Select
          field="schoolType"
          label="学校类型"
          optionList={SCHOOL_TYPES.map((t) => ({ value: t, label: t }))}
          style={{ width: '100%' }}
        />
        <Form.Slot label="学校分数线（占满分的百分比，学情分析按此统计优秀率、良好率、及格率、低分率；各学年学科可单独设置，见下方）">
          <div className={styles.bands}>
            <Form.InputNumber field="lowPercent" label="低分（低于）" min={1} max={100} suffix="%" />
            <Form.InputNumber field="passPercent" label="及格" min={1} max={100} suffix="%" />
            <Form.InputNumber field="goodPercent" label="良好" min={1} max={100} suffix="%" />
            <Form.InputNumber field="excellentPercent" label="优秀" min={1} max={100} suffix="%" />
          </div>
        </Form.Slot>
        <Form.Input field="filingNumber" label="备案号（显示在页脚）" maxLength={60} />
        {school.joinCode ? (
          <Form.Slot label="学校码（老师输入后申请加入，在 团队管理 中审批）">
            <Typography.Text copyable strong data-testid="join-code">
              {school.joinCode}
            </Typography.Text>
          </Form.Slot>
        ) : null}
        <Button htmlType="submit" theme="solid" loading={busy}>
          保存设置
        </Button>
      </Form>
    </>
  );
}

function ReadOnlySettings({ school }: { school: SchoolDetail }) {
  const { imageBaseUrl } = useTeamServices();
  return (
    <>
      <div className={styles.logo}>
        <Avatar shape="square" size="large" src={logoUrl(imageBaseUrl, school.logo)} alt={school.name}>
          {school.name.slice(0, 1)}
        </Avatar>
        <Typography.Title heading={4}>{school.name}</Typography.Title>
      </div>
      <Descriptions
        data={[
          { key: '所在地区', value: school.region || '—' },
          { key: '学校类型', value: school.schoolType },
          {
            key: '分数线',
            value: `低分 <${school.lowPercent}% · 及格 ${school.passPercent}% · 良好 ${school.goodPercent}% · 优秀 ${school.excellentPercent}%`,
          },
          { key: '备案号', value: school.filingNumber || '—' },
          { key: '成员', value: `${school.memberCount} 人` },
        ]}
      />
      <Banner type="info" closeIcon={null} description="学校设置由学校的创建者和管理员维护。" style={{ marginTop: 12 }} />
    </>
  );
}

/** /team/details?orgId=&isCreator= : the school's settings and structure (学校设置). */
export function TeamDetailsPage() {
  const { http, user } = useTeamServices();
  const [params] = useSearchParams();
  const fromQuery = Number(params.get('orgId'));
  const orgId = Number.isInteger(fromQuery) && fromQuery > 0 ? fromQuery : (user?.userGradeInfo.orgDefaultId ?? null);

  const loadSchool = useCallback(() => fetchSchool(http, orgId!), [http, orgId]);
  const loadStructure = useCallback(() => fetchStructure(http, orgId!), [http, orgId]);
  const school = useLoaded(orgId ? loadSchool : null);
  const structure = useLoaded(orgId ? loadStructure : null);
  const [saved, setSaved] = useState<SchoolDetail | null>(null);
  const current = saved && saved.id === orgId ? saved : school.data;

  if (orgId === null) {
    return (
      <main className={styles.frame}>
        <div className={styles.header}>
          <Typography.Title heading={3}>学校设置</Typography.Title>
        </div>
        <Typography.Paragraph>您还没有加入任何学校。</Typography.Paragraph>
        <NoSchoolPanel />
      </main>
    );
  }

  return (
    <main className={styles.frame}>
      <div className={styles.header}>
        <Typography.Title heading={3}>学校设置</Typography.Title>
        <div className={styles.row}>
          {current ? <Tag color="blue">{ROLE_LABELS[current.myRole]}</Tag> : null}
          {current?.canManage ? <Link to="/team/member">团队管理</Link> : null}
          <Link to="/team/group">我的团队</Link>
          <Link to="/largescreen">大屏（投屏与大屏管理）</Link>
        </div>
      </div>
      {school.loading && !current ? <Spin /> : null}
      {current ? (
        current.canManage ? (
          <>
            <SettingsForm key={current.id} school={current} onSaved={setSaved} />
            {structure.data ? (
              <Suspense fallback={<Spin />}>
                <RankSettingsPanel http={http} structure={structure.data} />
              </Suspense>
            ) : null}
          </>
        ) : (
          <ReadOnlySettings school={current} />
        )
      ) : null}
      {structure.data && current ? (
        <Suspense fallback={<Spin />}>
          <RateLinesPanel http={http} orgId={orgId} structure={structure.data} />
        </Suspense>
      ) : null}
      {structure.data && current ? (
        <section className={styles.section}>
          <SchoolStructurePanel
            orgId={orgId}
            structure={structure.data}
            canManage={current.canManage}
            onChanged={structure.reload}
          />
        </section>
      ) : null}
    </main>
  );
}
