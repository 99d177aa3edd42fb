/**
 * The teacher portal's route table (spec §2), as data: each path with its display name, which is also the
 * page title. Pure: the entry maps paths to pages, the top bar and guard read the lists below.
 */

export type PortalRoute = { path: string; name: string };

export const PORTAL_ROUTES: readonly PortalRoute[] = [
  { path: '/', name: '首页' },
  { path: '/login', name: '登录' },
  { path: '/userset', name: '个人中心' },
  { path: '/protocol', name: '用户协议' },
  { path: '/edit', name: '组卷选题' },
  { path: '/scan', name: '扫描' },
  { path: '/team/details', name: '学校详情' },
  { path: '/team/member', name: '团队管理' },
  { path: '/team/group', name: '我的团队' },
  { path: '/invite', name: '邀请' },
  { path: '/schoolmaterials', name: '校本资料' },
  { path: '/paperbinding', name: '校本资料2' },
  { path: '/analysis/grade', name: '年级学情' },
  { path: '/analysis/class', name: '班级学情' },
  { path: '/analysis/person', name: '学生学情' },
  { path: '/correct', name: '阅卷' },
  { path: '/write', name: '阅卷内页' },
  { path: '/paperlist', name: '作业列表' },
  { path: '/pringtingtest', name: '打印测试' },
  { path: '/printing', name: '打印' },
  { path: '/printgrade', name: '打印成绩' },
  { path: '/printanswer', name: '打印答案' },
  { path: '/printcode', name: '打印二维码' },
  { path: '/printBarcode', name: '打印条形码' },
  { path: '/printgradetest', name: '打印成绩测试' },
  { path: '/aboutUs', name: '关于我们' },
  { path: '/bigData', name: '大数据' },
  { path: '/assistant/analysis', name: '数据分析' },
  { path: '/assistant/commentary', name: '作业讲评' },
  { path: '/assistant/details', name: '作业详情' },
  { path: '/assistant/papaerReport', name: '报告' },
  { path: '/dataCenter/subject', name: '学科统计' },
  { path: '/dataCenter/correctScore', name: '作业批改报表' },
  { path: '/dataCenter/averageScore', name: '班级均分及小题对比' },
  { path: '/rehearse', name: '错题重练' },
  { path: '/largescreen', name: '大屏' },
  { path: '/404', name: '页面不存在' },
];

/** Paths that only redirect. */
export const PORTAL_REDIRECTS: Readonly<Record<string, string>> = {
  '/analysis': '/analysis/grade',
  '/assistant': '/assistant/analysis',
};

/** Reachable without a session (spec §2, navigation guard). */
export const PUBLIC_PATHS: readonly string[] = ['/', '/404'];

/** Reachable with or without a session: an invitation link opened logged out offers login or register. */
export const OPEN_PATHS: readonly string[] = ['/invite'];

/** Where a logged-in visitor on a public path is sent. */
export const PORTAL_HOME = '/paperList';

/** Pages without the top bar and scan component (spec §2, word for word). */
export const PATHS_WITHOUT_TOP_BAR: readonly string[] = [
  '/invite',
  '/pringtingtest',
  '/printgrade',
  '/printanswer',
  '/printcode',
  '/printBarcode',
  '/printgradetest',
  '/team/group',
  '/bigData',
  '/largescreen',
  '/answerCard',
  '/404',
  '/',
  '/login',
];

/** The footer is hidden only on the landing page. */
export const PATHS_WITHOUT_FOOTER: readonly string[] = ['/'];

/**
 * Pages that fill the viewport with no scroll (the projected large screen): the footer, which the spec keeps
 * on every page but /, is one line at the bottom of the viewport instead of a block after the page.
 */
export const FULL_VIEWPORT_PATHS: readonly string[] = ['/largescreen'];

/** The top bar's menu (spec §2). */
export type MenuItem = { path: string; text: string; children?: readonly MenuItem[] };

export const BASIC_MENU: readonly MenuItem[] = [
  { path: '/paperlist', text: '作业列表' },
  { path: '/analysis', text: '学情分析' },
  { path: '/rehearse', text: '错题重练' },
];

export const DATA_CENTER_MENU: MenuItem = {
  path: '/dataCenter',
  text: '数据中心',
  children: [
    { path: '/dataCenter/subject', text: '学科统计' },
    { path: '/dataCenter/correctScore', text: '作业批改报表' },
    { path: '/dataCenter/averageScore', text: '班级均分及小题对比' },
  ],
};

export function menuFor(gradeDirector: boolean): readonly MenuItem[] {
  return gradeDirector ? [...BASIC_MENU, DATA_CENTER_MENU] : BASIC_MENU;
}

/** Path comparison in the portal ignores letter case and a trailing slash (/paperList = /paperlist). */
export function normalizePath(pathname: string): string {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return trimmed.toLowerCase();
}

export function pathIn(pathname: string, list: readonly string[]): boolean {
  const normalized = normalizePath(pathname);
  return list.some((path) => normalizePath(path) === normalized);
}

export function routeName(pathname: string): string | undefined {
  const normalized = normalizePath(pathname);
  return PORTAL_ROUTES.find((route) => normalizePath(route.path) === normalized)?.name;
}

/**
 * The navigation guard (spec §2): a visitor with a session on a public path goes to /paperList; a
 * visitor without one anywhere else goes to /; otherwise navigation proceeds (null).
 */
export function guardRedirect(pathname: string, hasSession: boolean): string | null {
  if (pathIn(pathname, OPEN_PATHS)) return null;
  const isPublic = pathIn(pathname, PUBLIC_PATHS);
  if (hasSession && isPublic) return PORTAL_HOME;
  if (!hasSession && !isPublic) return '/';
  return null;
}
