import { describe, expect, it } from 'vitest';
import {
  guardRedirect,
  menuFor,
  pathIn,
  PATHS_WITHOUT_TOP_BAR,
  PORTAL_ROUTES,
  routeName,
} from '../../src/shared/lib/portal-routes';

describe('the navigation guard', () => {
  it('sends a logged-in visitor from / to /paperList', () => {
    expect(guardRedirect('/', true)).toBe('/paperList');
    expect(guardRedirect('/404', true)).toBe('/paperList');
  });

  it('sends an anonymous visitor from a private path to /', () => {
    expect(guardRedirect('/analysis/class', false)).toBe('/');
    expect(guardRedirect('/paperList', false)).toBe('/');
    expect(guardRedirect('/login', false)).toBe('/');
  });

  it('lets an anonymous visitor see the public paths and a logged-in one the private paths', () => {
    expect(guardRedirect('/', false)).toBeNull();
    expect(guardRedirect('/404', false)).toBeNull();
    expect(guardRedirect('/paperlist', true)).toBeNull();
    expect(guardRedirect('/team/details', true)).toBeNull();
  });
});

describe('the route table', () => {
  it('names every route of the spec once', () => {
    const paths = PORTAL_ROUTES.map((route) => route.path.toLowerCase());
    expect(new Set(paths).size).toBe(paths.length);
    expect(routeName('/analysis/grade')).toBe('年级学情');
    expect(routeName('/paperList')).toBe('作业列表');
    expect(routeName('/dataCenter/averageScore')).toBe('班级均分及小题对比');
  });

  it('hides the top bar on the print and kiosk pages but not on the homework list', () => {
    expect(pathIn('/printBarcode', PATHS_WITHOUT_TOP_BAR)).toBe(true);
    expect(pathIn('/login', PATHS_WITHOUT_TOP_BAR)).toBe(true);
    expect(pathIn('/paperlist', PATHS_WITHOUT_TOP_BAR)).toBe(false);
  });

  it('gives the grade director the data centre with its three children', () => {
    expect(menuFor(false).map((item) => item.text)).toEqual(['作业列表', '学情分析', '错题重练']);
    const director = menuFor(true);
    expect(director.map((item) => item.text)).toEqual(['作业列表', '学情分析', '错题重练', '数据中心']);
    expect(director[3]?.children?.map((item) => item.path)).toEqual([
      '/dataCenter/subject',
      '/dataCenter/correctScore',
      '/dataCenter/averageScore',
    ]);
  });
});
