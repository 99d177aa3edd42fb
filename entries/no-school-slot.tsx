/**
 * The 您还没有加入学校 panel of 作业列表 and 组卷, for the other pages whose every request needs a school
 * (学情分析, 错题重练): a teacher in no school is shown the way in rather than a failed load. Loaded only
 * when shown, so the pages' first view does not carry it.
 */
import { lazy, Suspense } from 'react';

const NoSchoolPanel = lazy(() =>
  import('../src/features/papers/no-school-panel').then((module) => ({ default: module.NoSchoolPanel })),
);

export function NoSchoolSlot() {
  return (
    <Suspense fallback={null}>
      <NoSchoolPanel />
    </Suspense>
  );
}
