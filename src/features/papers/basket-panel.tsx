/**
 * The 试题篮 panel: sections with editable titles, their questions in order with a score each, drag and
 * drop to reorder (also across sections) with up/down buttons as the keyboard way, the live total, and
 * the paper's actions (preview, clear, save), and keeping the questions as a 题目合集.
 */
import { IconArrowDown, IconArrowUp, IconDelete, IconHandle } from '@douyinfe/semi-icons';
import { Button, Empty, Input, Popconfirm, Tooltip, Typography } from '@douyinfe/semi-ui-19';
import { useState, type DragEvent } from 'react';
import { basketCount, basketTotal, chineseNumeral, formatScore, sectionScore, useBasketStore } from './basket.store';
import styles from './compose.module.css';
import { LazyFormulaLine as FormulaLine } from '../../shared/ui/lazy-rich-text';
import { lazyPart } from '../../shared/ui/lazy-part';

const DRAG_TYPE = 'application/x-sh-question';

// The score fields' InputNumber loads with the first question in the basket, not with the page.
const BasketScoreInput = lazyPart(() => import('./basket-score-input'), 'BasketScoreInput');

export function BasketPanel({
  onPreview,
  onSave,
  onSaveSet,
}: {
  onPreview: () => void;
  onSave: () => void;
  /** 存为题目合集: keep the picked questions as a named set (shared to 校本资料 if wished). */
  onSaveSet: () => void;
}) {
  const sections = useBasketStore((s) => s.sections);
  const { remove, setScore, moveTo, moveBy, moveSection, renameSection, clear } = useBasketStore.getState();
  const [dropTarget, setDropTarget] = useState<string | null>(null);
  const count = basketCount(sections);
  const total = basketTotal(sections);

  const onDragStart = (event: DragEvent, questionId: number) => {
    event.dataTransfer.setData(DRAG_TYPE, String(questionId));
    event.dataTransfer.setData('text/plain', String(questionId));
    event.dataTransfer.effectAllowed = 'move';
  };
  const allowDrop = (event: DragEvent, target: string) => {
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    setDropTarget(target);
  };
  const onDrop = (event: DragEvent, sectionId: string, index: number) => {
    event.preventDefault();
    setDropTarget(null);
    const id = Number(event.dataTransfer.getData(DRAG_TYPE) || event.dataTransfer.getData('text/plain'));
    if (Number.isInteger(id) && id > 0) moveTo(id, sectionId, index);
  };

  // Running question numbers across sections: the first number of each section.
  const firstNo = sections.reduce<number[]>(
    (acc, _section, i) => [...acc, i === 0 ? 1 : (acc[i - 1] ?? 1) + (sections[i - 1]?.items.length ?? 0)],
    [],
  );
  return (
    <aside className={styles.basket} aria-label="试题篮" id="paper-basket">
      <div className={styles.basketHeader}>
        <Typography.Title heading={5} style={{ margin: 0 }}>
          试题篮
        </Typography.Title>
        <span aria-live="polite">
          {`共 ${count} 题，总分 `}
          <strong data-testid="basket-total">{formatScore(total)}</strong>
          {' 分'}
        </span>
      </div>
      {count === 0 ? (
        <Empty description="还没有选题：在左侧题目上点击“加入试题篮”，或使用智能组卷" />
      ) : (
        <div className={styles.basketSections}>
          {sections.map((section, s) => (
            <section key={section.id} className={styles.basketSection} aria-label={`第${chineseNumeral(s + 1)}大题`}>
              <div className={styles.sectionHead}>
                <span className={styles.sectionNo}>{chineseNumeral(s + 1)}、</span>
                <Input
                  size="small"
                  aria-label={`第${chineseNumeral(s + 1)}大题标题`}
                  value={section.title}
                  maxLength={40}
                  onChange={(value) => renameSection(section.id, value)}
                />
                <span className={styles.sectionScore}>{formatScore(sectionScore(section))} 分</span>
                <Button
                  size="small"
                  theme="borderless"
                  icon={<IconArrowUp />}
                  aria-label={`大题上移：${section.title}`}
                  disabled={s === 0}
                  onClick={() => moveSection(section.id, -1)}
                />
                <Button
                  size="small"
                  theme="borderless"
                  icon={<IconArrowDown />}
                  aria-label={`大题下移：${section.title}`}
                  disabled={s === sections.length - 1}
                  onClick={() => moveSection(section.id, 1)}
                />
              </div>
              <ol className={styles.basketItems}>
                {section.items.map((item, i) => {
                  const no = (firstNo[s] ?? 1) + i;
                  const target = `${section.id}:${i}`;
                  return (
                    <li
                      key={item.question.id}
                      className={dropTarget === target ? `${styles.basketItem} ${styles.dropBefore}` : styles.basketItem}
                      draggable
                      onDragStart={(event) => onDragStart(event, item.question.id)}
                      onDragOver={(event) => allowDrop(event, target)}
                      onDragLeave={() => setDropTarget(null)}
                      onDrop={(event) => onDrop(event, section.id, i)}
                      aria-label={`试题篮第 ${no} 题`}
                    >
                      <IconHandle className={styles.handle} aria-hidden />
                      <span className={styles.itemNo}>{no}.</span>
                      <Tooltip content={<FormulaLine text={item.question.stem} className={styles.itemTip} />}>
                        <span className={styles.itemStem}>
                          <FormulaLine text={item.question.stem} />
                        </span>
                      </Tooltip>
                      <BasketScoreInput no={no} score={item.score} onScore={(score) => setScore(item.question.id, score)} />
                      <Button
                        size="small"
                        theme="borderless"
                        icon={<IconArrowUp />}
                        aria-label={`上移第 ${no} 题`}
                        disabled={i === 0}
                        onClick={() => moveBy(item.question.id, -1)}
                      />
                      <Button
                        size="small"
                        theme="borderless"
                        icon={<IconArrowDown />}
                        aria-label={`下移第 ${no} 题`}
                        disabled={i === section.items.length - 1}
                        onClick={() => moveBy(item.question.id, 1)}
                      />
                      <Button
                        size="small"
                        theme="borderless"
                        type="danger"
                        icon={<IconDelete />}
                        aria-label={`删除第 ${no} 题`}
                        onClick={() => remove(item.question.id)}
                      />
                    </li>
                  );
                })}
                <li
                  className={dropTarget === `${section.id}:end` ? `${styles.dropEnd} ${styles.dropBefore}` : styles.dropEnd}
                  onDragOver={(event) => allowDrop(event, `${section.id}:end`)}
                  onDragLeave={() => setDropTarget(null)}
                  onDrop={(event) => onDrop(event, section.id, section.items.length)}
                  aria-hidden
                />
              </ol>
            </section>
          ))}
        </div>
      )}
      <div className={styles.basketActions}>
        <Popconfirm title="确定清空试题篮吗？" content="已选的题目和分值都会被移除" onConfirm={clear}>
          <span>
            <Button type="danger" disabled={count === 0}>
              清空
            </Button>
          </span>
        </Popconfirm>
        <Button disabled={count === 0} onClick={onPreview}>
          预览试卷
        </Button>
        <Button disabled={count === 0} onClick={onSaveSet}>
          存为题目合集
        </Button>
        <Button theme="solid" disabled={count === 0} onClick={onSave}>
          保存试卷
        </Button>
      </div>
    </aside>
  );
}
