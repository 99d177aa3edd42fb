import { IconChevronDown, IconExit, IconMenu, IconScan, IconSetting, IconUser, IconUserGroup } from '@douyinfe/semi-icons';
import { Avatar, Button, Dropdown, Nav, Toast, Tooltip } from '@douyinfe/semi-ui-19';
import { lazy, Suspense } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { MESSAGES } from '../../shared/contract/envelope';
import { ERROR_MESSAGE_DURATION_MS } from '../../shared/adapters/http-client';
import { menuFor, normalizePath, type MenuItem } from '../../shared/lib/portal-routes';
import { SMALL_SCREEN_QUERY, useMediaQuery } from '../../shared/ui/use-media-query';
import { preloadLoginBox } from './login-box-loader';
import { useLoginBox } from './login-box.store';
import { imageUrl, usePortalServices } from './portal-services';
import styles from './top-bar.module.css';
import { useCurrentSchoolYear } from './use-current-school-year';
import { useSession } from './use-session';

// Semi's Select is heavy and only a logged-in teacher sees the picker: it loads with the first login.
const SchoolYearPicker = lazy(() => import('./school-year-picker').then((m) => ({ default: m.SchoolYearPicker })));

function selectedKey(pathname: string, menu: readonly MenuItem[]): string[] {
  const path = normalizePath(pathname);
  for (const item of menu) {
    for (const child of item.children ?? []) if (path.startsWith(normalizePath(child.path))) return [child.path];
    if (path.startsWith(normalizePath(item.path))) return [item.path];
  }
  return [];
}

function toNavItems(menu: readonly MenuItem[]) {
  return menu.map((item) =>
    item.children
      ? { itemKey: item.path, text: item.text, items: item.children.map((child) => ({ itemKey: child.path, text: child.text })) }
      : { itemKey: item.path, text: item.text },
  );
}

/** The portal's top bar (spec §2). */
export function TopBar() {
  const { user, loggedIn, logout } = useSession();
  const { imageBaseUrl } = usePortalServices();
  const { schoolYear } = useCurrentSchoolYear();
  const showLoginBox = useLoginBox((state) => state.show);
  const small = useMediaQuery(SMALL_SCREEN_QUERY);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const info = user?.userGradeInfo;
  const menu = menuFor(info?.gradeDirector ?? false);
  const go = (path: string) => navigate(path);

  const openScan = () => {
    if (!schoolYear) {
      Toast.error({ content: MESSAGES.scanNeedsSchoolYear, duration: ERROR_MESSAGE_DURATION_MS / 1000 });
      return;
    }
    navigate('/scan');
  };

  const menuNode = small ? (
    <Dropdown
      trigger="click"
      position="bottomLeft"
      render={
        <Dropdown.Menu>
          {menu.flatMap((item) =>
            item.children
              ? [
                  <Dropdown.Title key={item.path}>{item.text}</Dropdown.Title>,
                  ...item.children.map((child) => (
                    <Dropdown.Item key={child.path} onClick={() => go(child.path)}>
                      {child.text}
                    </Dropdown.Item>
                  )),
                ]
              : [
                  <Dropdown.Item key={item.path} onClick={() => go(item.path)}>
                    {item.text}
                  </Dropdown.Item>,
                ],
          )}
        </Dropdown.Menu>
      }
    >
      {/* Semi's popups position against a DOM node: a plain span gives them one. */}
      <span className={styles.trigger}>
        <Button icon={<IconMenu />} theme="borderless" aria-label="菜单" />
      </span>
    </Dropdown>
  ) : (
    <Nav
      mode="horizontal"
      className={styles.nav}
      items={toNavItems(menu)}
      selectedKeys={selectedKey(pathname, menu)}
      onSelect={({ itemKey }) => go(String(itemKey))}
    />
  );

  return (
    <header className={styles.bar}>
      <button type="button" className={styles.brand} onClick={() => go('/paperlist')} aria-label="智慧作业首页">
        <img src="/favicon.svg" alt="" width={28} height={28} />
        {small ? null : <span>智慧作业</span>}
      </button>
      {loggedIn ? menuNode : <div className={styles.spacer} />}
      <div className={styles.right}>
        {loggedIn ? (
          <Suspense fallback={null}>
            <SchoolYearPicker />
          </Suspense>
        ) : null}
        {loggedIn && !small ? (
          <Tooltip content="扫描答题卡">
            <span className={styles.trigger}>
              <Button icon={<IconScan size="large" />} theme="borderless" aria-label="扫描" onClick={openScan} />
            </span>
          </Tooltip>
        ) : null}
        {loggedIn && user ? (
          <Dropdown
            position="bottomRight"
            render={
              <Dropdown.Menu>
                <Dropdown.Item icon={<IconUser />} onClick={() => go('/userset')}>
                  个人中心
                </Dropdown.Item>
                {info?.orgDefaultId != null ? (
                  <Dropdown.Item
                    icon={<IconSetting />}
                    onClick={() => go(`/team/details?orgId=${info.orgDefaultId}&isCreator=${info.isCreator}`)}
                  >
                    学校设置
                  </Dropdown.Item>
                ) : null}
                <Dropdown.Item icon={<IconUserGroup />} onClick={() => go('/team/group')}>
                  {info?.orgDefaultId == null ? '创建/加入学校' : user.orgs.length > 1 ? '我的团队 / 切换学校' : '我的团队'}
                </Dropdown.Item>
                <Dropdown.Divider />
                <Dropdown.Item icon={<IconExit />} onClick={logout}>
                  退出登录
                </Dropdown.Item>
              </Dropdown.Menu>
            }
          >
            <span className={styles.user} role="button" tabIndex={0} aria-label="账号菜单">
              <Avatar size="small" src={imageUrl(imageBaseUrl, user.avatar)} alt={user.nickname}>
                {user.nickname.slice(0, 1)}
              </Avatar>
              {small ? null : <span className={styles.username}>{user.nickname || user.username}</span>}
              <IconChevronDown size="small" />
            </span>
          </Dropdown>
        ) : (
          <Button theme="solid" onPointerEnter={preloadLoginBox} onFocus={preloadLoginBox} onClick={() => showLoginBox()}>
            注册/登录
          </Button>
        )}
      </div>
    </header>
  );
}
