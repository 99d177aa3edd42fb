/**
 * The frame of the four homework assistant pages (数据分析, 作业讲评, 作业详情, 报告): the homework and
 * class pickers, the tabs between the pages (keeping ?homeworkId= and ?classId=), and the query states.
 */
import { Tabs, TabPane, Typography } from '@douyinfe/semi-ui-19';
import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { HomeworkAnalysis, HomeworkProjection } from '../../shared/contract/analysis';
import { LabelledSelect } from '../../shared/ui/labelled-select';
import { useAnalysisOptions, useHomeworkAnalysis } from './analysis-api';
import { AnalysisFilterBar } from './analysis-filter-bar';
import { QueryState } from './analysis-ui';
import styles from './analysis.module.css';
import { useAnalysisFilters } from './use-analysis-filters';

export const ASSISTANT_TABS = [
  { path: '/assistant/analysis', name: '数据分析' },
  { path: '/assistant/commentary', name: '作业讲评' },
  { path: '/assistant/details', name: '作业详情' },
  { path: '/assistant/papaerReport', name: '报告' },
] as const;

export function HomeworkShell({
  children,
  bare = false,
  projection,
}: {
  children: (data: HomeworkAnalysis) => ReactNode;
  bare?: boolean;
  /** A projected page's view of the chosen homework: anonymous, or named when the teacher asked (the server
   * refuses names where the school year does not allow them). */
  projection?: (homeworkId: number | null) => HomeworkProjection;
}) {
  const options = useAnalysisOptions();
  const { filters, update } = useAnalysisFilters(options.data);
  const asked = new URLSearchParams(useLocation().search).get('classId');
  const classId = asked ? filters.classId : null;
  const analysis = useHomeworkAnalysis(filters.homeworkId, classId, projection?.(filters.homeworkId));
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  return (
    <div className={bare ? undefined : styles.page}>
      {!bare ? (
        <Tabs className={styles.noPrint} activeKey={pathname} onChange={(key) => navigate(`${key}${search}`)} type="line">
          {ASSISTANT_TABS.map((tab) => (
            <TabPane key={tab.path} itemKey={tab.path} tab={tab.name} />
          ))}
        </Tabs>
      ) : null}
      <QueryState
        loading={options.isLoading}
        error={options.error}
        empty={!options.data?.homework.length}
        emptyText="暂无可分析的作业"
        emptyHint="您任教班级的作业扫描、批阅后，会在这里显示分析和讲评。"
      >
        {() => (
          <>
            <div className={styles.noPrint}>
              <AnalysisFilterBar options={options.data!} filters={filters} update={update} show={{ homework: true }} />
            </div>
            <QueryState
              loading={analysis.isLoading}
              error={analysis.error}
              empty={filters.homeworkId === null}
              emptyText="请选择作业"
            >
              {() => (
                <>
                  <div className={`${styles.sectionHead} ${styles.noPrint}`}>
                    <Typography.Title heading={4}>
                      {analysis.data!.homework.title}
                      <Typography.Text type="tertiary" style={{ marginLeft: 8, fontSize: 14 }}>
                        {analysis.data!.homework.subjectName} · {analysis.data!.homework.startDate}
                      </Typography.Text>
                    </Typography.Title>
                    <LabelledSelect
                      label="班级范围"
                      value={classId ?? 0}
                      style={{ minWidth: 160 }}
                      optionList={[
                        { value: 0, label: '全部班级' },
                        ...analysis.data!.classes.map((c) => ({ value: c.id, label: c.name })),
                      ]}
                      onChange={(value) => update({ classId: (value as number) || null })}
                    />
                  </div>
                  {children(analysis.data!)}
                </>
              )}
            </QueryState>
          </>
        )}
      </QueryState>
    </div>
  );
}
