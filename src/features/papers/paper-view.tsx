/**
 * A paper as printed: title, subject and full score, then the sections (一、二、…) with their numbered
 * questions, options laid out by length, and space to write for subjective questions. With `answers`
 * it prints 参考答案与解析 instead. Used by /printing, /printanswer and the compose page's preview.
 */
import { type PaperDetail, type Question } from '../../shared/contract/papers';
import { formatScore, numberedSectionTitle, type BasketSection } from './basket.store';
import styles from './paper-view.module.css';
import { RichText } from '../../shared/ui/rich-text';
import { optionColumns } from './option-columns';

export type PaperViewModel = {
  title: string;
  subjectName: string;
  sections: { title: string; items: { no: number; score: number; question: Question }[] }[];
};

const OPTION_LETTERS = 'ABCDEFGH';

export function paperViewFromDetail(paper: PaperDetail): PaperViewModel {
  return {
    title: paper.title,
    subjectName: paper.subjectName,
    sections: paper.sections.map((s) => ({
      title: s.title,
      items: s.questions.map((q) => ({ no: q.no, score: q.score, question: q.question })),
    })),
  };
}

/** The basket as it will print: questions numbered in order across sections. */
export function paperViewFromBasket(title: string, subjectName: string, sections: readonly BasketSection[]): PaperViewModel {
  let no = 0;
  return {
    title,
    subjectName,
    sections: sections.map((s) => ({
      title: s.title,
      items: s.items.map((i) => {
        no += 1;
        return { no, score: i.score, question: i.question };
      }),
    })),
  };
}

function totals(model: PaperViewModel): { score: number; count: number } {
  const items = model.sections.flatMap((s) => s.items);
  return { score: Math.round(items.reduce((sum, i) => sum + i.score * 10, 0)) / 10, count: items.length };
}

function answerText(question: Question): string {
  if (question.type === 'blank') return question.answer.map((a, i) => `（${i + 1}）${a}`).join('；');
  return question.answer.join(question.type === 'multiple' ? '' : '；');
}

export function PaperView({ model, answers = false }: { model: PaperViewModel; answers?: boolean }) {
  const { score, count } = totals(model);
  return (
    <div className={styles.paper}>
      <h1 className={styles.title}>
        {model.title}
        {answers ? '（参考答案与解析）' : ''}
      </h1>
      <p className={styles.meta}>
        {`学科：${model.subjectName}\u3000满分：${formatScore(score)} 分\u3000共 ${count} 题`}
        {answers ? null : <span className={styles.student}>{'班级：＿＿＿＿\u3000姓名：＿＿＿＿\u3000学号：＿＿＿＿'}</span>}
      </p>
      {model.sections.map((section, s) => {
        const sectionScore = Math.round(section.items.reduce((sum, i) => sum + i.score * 10, 0)) / 10;
        return (
          <section key={s} className={styles.section} aria-label={section.title}>
            <h2 className={styles.sectionTitle}>
              {numberedSectionTitle(s, section.title)}
              {/分）$/.test(section.title) ? '' : `（共 ${section.items.length} 题，共 ${formatScore(sectionScore)} 分）`}
            </h2>
            {section.items.map((item) => (
              <div key={item.question.id} className={styles.question}>
                <div className={styles.stem}>
                  <span className={styles.no}>{item.no}．</span>
                  <span className={styles.score}>（{formatScore(item.score)} 分）</span>
                  <RichText text={item.question.stem} />
                  {!answers && item.question.type === 'judge' ? <span className={styles.judge}>{'（\u3000\u3000）'}</span> : null}
                </div>
                {answers ? (
                  <div className={styles.answer}>
                    <p>
                      <strong>【答案】</strong>
                      <RichText text={answerText(item.question)} />
                    </p>
                    {item.question.analysis ? (
                      <p>
                        <strong>【解析】</strong>
                        <RichText text={item.question.analysis} />
                      </p>
                    ) : null}
                  </div>
                ) : item.question.options.length > 0 ? (
                  <ol className={styles.options} data-columns={optionColumns(item.question.options)}>
                    {item.question.options.map((option, o) => (
                      <li key={o}>
                        {OPTION_LETTERS[o]}．<RichText text={option} />
                      </li>
                    ))}
                  </ol>
                ) : item.question.type === 'subjective' ? (
                  <div className={styles.workspace} aria-hidden="true" />
                ) : null}
              </div>
            ))}
          </section>
        );
      })}
    </div>
  );
}
