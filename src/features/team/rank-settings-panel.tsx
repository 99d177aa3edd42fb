/**
 * 排名设置 on /team/details (school managers): per school year, whether analysis shows ranks and named
 * score lists. 默认 follows the school type (off for 小学 and 初中, on for 高中), as the privacy rule in
 * analysis-definitions.md asks; grade bands (优秀 / 良好 / 合格 / 待合格) are always shown. The school years
 * are read again whenever the page's structure changes (升年级, a rename, an archive, a new school year),
 * so their names here are the ones 学年与班级 shows.
 */
import { Radio, RadioGroup, Spin, Toast, Typography } from '@douyinfe/semi-ui-19';
import { useEffect, useState } from 'react';
import type { HttpClient } from '../../shared/adapters/http-client';
import { analysisOptionsSchema, type AnalysisOptions } from '../../shared/contract/analysis';
import type { SchoolStructure } from '../../shared/contract/org';

type Choice = 'default' | 'on' | 'off';
const toChoice = (enabled: boolean | null): Choice => (enabled === null ? 'default' : enabled ? 'on' : 'off');

/** `structure`: the page's copy of the school's structure; a new one (after a change) reloads the years. */
export function RankSettingsPanel({ http, structure }: { http: HttpClient; structure: SchoolStructure }) {
  const [years, setYears] = useState<AnalysisOptions['schoolYears'] | null>(null);
  useEffect(() => {
    let alive = true;
    http
      .get('/api/analysis/options', undefined, analysisOptionsSchema)
      .then((options) => alive && setYears(options.schoolYears))
      .catch(() => alive && setYears([]));
    return () => {
      alive = false;
    };
  }, [http, structure]);

  const change = async (schoolYearId: number, choice: Choice) => {
    const enabled = choice === 'default' ? null : choice === 'on';
    try {
      await http.putJson('/api/analysis/rank-settings', { schoolYearId, enabled });
      const options = await http.get('/api/analysis/options', undefined, analysisOptionsSchema);
      setYears(options.schoolYears);
      Toast.success('排名设置已保存');
    } catch {
      // The HTTP client has shown the server's message.
    }
  };

  if (!years) return <Spin />;
  return (
    <section aria-label="排名设置" style={{ marginTop: 24 }}>
      <Typography.Title heading={6}>排名设置（学情分析）</Typography.Title>
      <Typography.Paragraph type="tertiary">
        默认：小学、初中不排名、不公布个人成绩名单，高中显示排名。等级（优秀 / 良好 / 合格 / 待合格）始终显示。
      </Typography.Paragraph>
      {years.length === 0 ? <Typography.Text>还没有学年</Typography.Text> : null}
      {years.map((year) => (
        <div key={year.id} style={{ display: 'flex', gap: 16, alignItems: 'center', flexWrap: 'wrap', margin: '8px 0' }}>
          <strong style={{ minWidth: 96 }}>{year.name}</strong>
          <RadioGroup
            type="button"
            aria-label={`${year.name} 排名`}
            value={toChoice(year.ranksEnabled)}
            onChange={(event) => void change(year.id, event.target.value as Choice)}
          >
            <Radio value="default">
              默认（{year.ranksEnabled === null ? (year.ranksAllowed ? '显示' : '不显示') : '按学校类型'}）
            </Radio>
            <Radio value="on">显示排名</Radio>
            <Radio value="off">不显示排名</Radio>
          </RadioGroup>
        </div>
      ))}
    </section>
  );
}
