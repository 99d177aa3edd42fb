import { IconChevronDown, IconExit, IconMenu, IconScan, IconSetting, IconUser, IconUserGroup } from '@douyinfe/semi-icons';
import { Button, Toast } from '@douyinfe/semi-ui-19';
import { lazy, Suspense, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { MESSAGES } from '../../shared/contract/envelope';
import { ERROR_MESSAGE_DURATION_MS } from '../../shared/adapters/http-client';
import { menuFor, normalizePath, type MenuItem } from '../../shared/lib/portal-routes';
import { SMALL_SCREEN_QUERY, useMediaQuery } from '../../shared/ui/use-media-query';
import { preloadLoginBox } from './login-box-loader';
import { useLoginBox } from './login-box.store';
import { imageUrl, usePortalServices } from './portal-services';
import { MenuPopup, type MenuEntry } from './top-bar-menu';
import styles from './top-bar.module.css';
import { useCurrentSchoolYear } from './use-current-school-year';
import { useSession } from './use-session';

// Semi's Select is heavy and only a logged-in teacher sees the picker: it loads with the first login.
const SchoolYearPicker = lazy(() => import('./school-year-picker').then((m) => ({ default: m.SchoolYearPicker })));

function selectedKey(pathname: string, menu: readonly MenuItem[]): string | null {
  const path = normalizePath(pathname);
  for (const item of menu) {
    for (const child of item.children ?? []) if (path.startsWith(normalizePath(child.path))) return child.path;
    if (path.startsWith(normalizePath(item.path))) return item.path;
  }
  return null;
}

/** The account's round picture, or the first character of the name (Semi Avatar's small, grey look). */
function UserAvatar({ src, name }: { src: string | undefined; name: string }) {
  const [broken, setBroken] = useState(false);
  return (
    <span className={styles.avatar}>
      {src && !broken ? <img src={src} alt={name} onError={() => setBroken(true)} /> : name.slice(0, 1)}
    </span>
  );
}

/**
 * The portal's top bar (spec §2), in plain markup with Semi's look: the menus are top-bar-menu.tsx, so
 * no Semi Navigation, Dropdown, Tooltip or Avatar loads with every logged-in page.
 */
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
  const selected = selectedKey(pathname, menu);
  const go = (path: string) => navigate(path);

  const openScan = () => {
    if (!schoolYear) {
      Toast.error({ content: MESSAGES.scanNeedsSchoolYear, duration: ERROR_MESSAGE_DURATION_MS / 1000 });
      return;
    }
    navigate('/scan');
  };

  const itemOf = (item: MenuItem): MenuEntry => ({
    kind: 'item',
    key: item.path,
    text: item.text,
    selected: item.path === selected,
    onSelect: () => go(item.path),
  });

  const menuNode = small ? (
    <MenuPopup
      trigger="click"
      align="left"
      entries={menu.flatMap((item): MenuEntry[] =>
        item.children ? [{ kind: 'title', key: item.path, text: item.text }, ...item.children.map(itemOf)] : [itemOf(item)],
      )}
    >
      <Button icon={<IconMenu />} theme="borderless" aria-label="菜单" />
    </MenuPopup>
  ) : (
    <nav className={styles.nav} aria-label="主菜单">
      {menu.map((item) => {
        const current = item.path === selected || (item.children ?? []).some((child) => child.path === selected);
        const className = current ? `${styles.navItem} ${styles.navItemSelected}` : styles.navItem;
        return item.children ? (
          <MenuPopup key={item.path} trigger="hover" align="left" entries={item.children.map(itemOf)}>
            <span className={className} role="button" tabIndex={0} aria-haspopup="menu">
              {item.text}
              <IconChevronDown size="small" />
            </span>
          </MenuPopup>
        ) : (
          <button
            key={item.path}
            type="button"
            className={className}
            aria-current={current ? 'page' : undefined}
            onClick={() => go(item.path)}
          >
            {item.text}
          </button>
        );
      })}
    </nav>
  );

  const accountEntries: MenuEntry[] = [
    { kind: 'item', key: 'userset', text: '个人中心', icon: <IconUser />, onSelect: () => go('/userset') },
    ...(info?.orgDefaultId != null
      ? [
          {
            kind: 'item' as const,
            key: 'school',
            text: '学校设置',
            icon: <IconSetting />,
            onSelect: () => go(`/team/details?orgId=${info.orgDefaultId}&isCreator=${info.isCreator}`),
          },
        ]
      : []),
    {
      kind: 'item',
      key: 'team',
      text: info?.orgDefaultId == null ? '创建/加入学校' : (user?.orgs.length ?? 0) > 1 ? '我的团队 / 切换学校' : '我的团队',
      icon: <IconUserGroup />,
      onSelect: () => go('/team/group'),
    },
    { kind: 'divider', key: 'divider' },
    { kind: 'item', key: 'logout', text: '退出登录', icon: <IconExit />, onSelect: logout },
  ];

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
          <span className={styles.tipHolder}>
            <Button
              icon={<IconScan size="large" />}
              theme="borderless"
              aria-label="扫描"
              aria-describedby="top-bar-scan-tip"
              onClick={openScan}
            />
            <span id="top-bar-scan-tip" role="tooltip" className={styles.tip}>
              扫描答题卡
            </span>
          </span>
        ) : null}
        {loggedIn && user ? (
          <MenuPopup trigger="hover" align="right" entries={accountEntries}>
            <span className={styles.user} role="button" tabIndex={0} aria-label="账号菜单" aria-haspopup="menu">
              <UserAvatar src={imageUrl(imageBaseUrl, user.avatar)} name={user.nickname} />
              {small ? null : <span className={styles.username}>{user.nickname || user.username}</span>}
              <IconChevronDown size="small" />
            </span>
          </MenuPopup>
        ) : (
          <Button theme="solid" onPointerEnter={preloadLoginBox} onFocus={preloadLoginBox} onClick={() => showLoginBox()}>
            注册/登录
          </Button>
        )}
      </div>
    </header>
  );
}
