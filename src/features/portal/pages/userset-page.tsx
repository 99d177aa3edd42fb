import { IconCamera } from '@douyinfe/semi-icons';
import { Avatar, Button, Descriptions, Form, Tag, Toast } from '@douyinfe/semi-ui-19';
import type { FormApi } from '@douyinfe/semi-ui-19/lib/es/form/interface';
import { useRef, useState, type ChangeEvent } from 'react';
import { AVATAR_MAX_BYTES, AVATAR_TYPES, type CurrentUser } from '../../../shared/contract/auth';
import { changeMobile, changePassword, updateProfile, uploadAvatar } from '../account-api';
import { nicknameRules, passwordRules, validateSmsCode } from '../form-rules';
import { MobileField, NewPasswordFields } from '../form-fields';
import { imageUrl, usePortalServices } from '../portal-services';
import { SmsCodeButton } from '../sms-code-button';
import { useBusyAction } from '../use-busy-action';
import { useSession } from '../use-session';
import { PageFrame } from './page-frame';
import styles from './userset-page.module.css';
import { ProgressBar } from '../../../shared/ui/progress-bar';

type Values = Record<string, string | undefined>;

function useUserUpdate() {
  const { session } = usePortalServices();
  return (user: CurrentUser) => session.send({ type: 'user.updated', user });
}

function AvatarUpload({ user }: { user: CurrentUser }) {
  const { http, imageBaseUrl } = usePortalServices();
  const updateUser = useUserUpdate();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) {
      Toast.error('头像只支持 PNG、JPG、WEBP 或 GIF 图片');
      return;
    }
    if (file.size > AVATAR_MAX_BYTES) {
      Toast.error('头像图片不能超过 2 MB');
      return;
    }
    setProgress(0);
    try {
      const { avatar } = await uploadAvatar(http, file, setProgress);
      updateUser({ ...user, avatar });
      Toast.success('头像已更新');
    } catch {
      // The HTTP client has shown the server's message.
    } finally {
      setProgress(null);
    }
  };

  return (
    <div className={styles.avatar}>
      <Avatar size="extra-large" src={imageUrl(imageBaseUrl, user.avatar)} alt={user.nickname}>
        {user.nickname.slice(0, 1)}
      </Avatar>
      <input ref={input} type="file" accept={AVATAR_TYPES.join(',')} hidden onChange={onFile} aria-label="选择头像图片" />
      <Button icon={<IconCamera />} onClick={() => input.current?.click()} disabled={progress !== null}>
        更换头像
      </Button>
      {progress !== null ? <ProgressBar percent={Math.round(progress * 100)} showInfo aria-label="头像上传进度" /> : null}
    </div>
  );
}

function ProfileForm({ user }: { user: CurrentUser }) {
  const { http } = usePortalServices();
  const updateUser = useUserUpdate();
  const [saving, run] = useBusyAction();
  const submit = (values: Values) =>
    run(async () => {
      updateUser(await updateProfile(http, (values.nickname ?? '').trim()));
      Toast.success('资料已保存');
    });
  return (
    <Form<Values> initValues={{ nickname: user.nickname }} onSubmit={submit} layout="horizontal" aria-label="修改昵称">
      <Form.Input field="nickname" label="昵称" rules={nicknameRules} style={{ width: 220 }} />
      <Button htmlType="submit" theme="solid" loading={saving} className={styles.inlineButton}>
        保存
      </Button>
    </Form>
  );
}

function PasswordForm() {
  const { http } = usePortalServices();
  const [saving, run] = useBusyAction();
  const formApi = useRef<FormApi<Values> | null>(null);
  const submit = (values: Values) =>
    run(async () => {
      await changePassword(http, {
        oldPassword: values.oldPassword ?? '',
        password: values.password ?? '',
        password2: values.password2 ?? '',
      });
      Toast.success('密码已修改，其他设备上的登录已退出');
      formApi.current?.reset();
    });
  return (
    <Form<Values>
      getFormApi={(api) => (formApi.current = api)}
      onSubmit={submit}
      labelPosition="left"
      labelWidth={96}
      aria-label="修改密码"
    >
      <Form.Input
        field="oldPassword"
        label="原密码"
        mode="password"
        rules={passwordRules}
        trigger="change"
        autoComplete="current-password"
      />
      <NewPasswordFields newLabel layout="left" />
      <Button htmlType="submit" theme="solid" loading={saving}>
        修改密码
      </Button>
    </Form>
  );
}

function MobileForm() {
  const { http } = usePortalServices();
  const updateUser = useUserUpdate();
  const [saving, run] = useBusyAction();
  const formApi = useRef<FormApi<Values> | null>(null);
  const submit = (values: Values) =>
    run(async () => {
      updateUser(await changeMobile(http, (values.mobile ?? '').trim(), (values.smsCode ?? '').trim()));
      Toast.success('手机号已更换');
      formApi.current?.reset();
    });
  return (
    <Form<Values>
      getFormApi={(api) => (formApi.current = api)}
      onSubmit={submit}
      labelPosition="left"
      labelWidth={96}
      aria-label="更换手机号"
    >
      <MobileField label="新手机号" />
      <div className={styles.smsRow}>
        <Form.Input field="smsCode" label="短信验证码" validate={validateSmsCode} autoComplete="one-time-code" />
        <SmsCodeButton
          purpose="bind"
          getMobile={() => formApi.current?.getValue('mobile') ?? ''}
          onInvalidMobile={(message) => formApi.current?.setError('mobile', message)}
        />
      </div>
      <Button htmlType="submit" theme="solid" loading={saving}>
        更换手机号
      </Button>
    </Form>
  );
}

/** /userset: the personal centre. */
export function UsersetPage() {
  const { user } = useSession();
  if (!user) return null;
  const info = user.userGradeInfo;
  return (
    <PageFrame title="个人中心" narrow>
      <section className={styles.section} aria-label="基本资料">
        <AvatarUpload user={user} />
        <Descriptions
          data={[
            { key: '用户名', value: user.username },
            { key: '手机号', value: user.mobile ?? '未绑定' },
            { key: '学校', value: info.orgName ?? '未加入学校' },
            { key: '默认学年', value: info.classDefaultName ?? '暂无默认学年' },
            { key: '身份', value: info.isCreator ? '创建者' : info.gradeDirector ? '年级主任' : '教师' },
            {
              key: '微信',
              value: user.wechatBound ? <Tag color="green">已绑定</Tag> : <Tag color="grey">未绑定</Tag>,
            },
          ]}
        />
        <ProfileForm user={user} />
      </section>
      <section className={styles.section}>
        <h4>修改密码</h4>
        <PasswordForm />
      </section>
      <section className={styles.section}>
        <h4>更换手机号</h4>
        <MobileForm />
      </section>
    </PageFrame>
  );
}
