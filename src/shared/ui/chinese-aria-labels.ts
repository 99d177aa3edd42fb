/**
 * Semi UI writes some accessible names in English into its markup (a dialog's footer buttons are
 * `aria-label="confirm"` / `"cancel"` whatever their text, the close button is `"close"`, the pager's
 * arrows `"Previous"` / `"Next"`), and its LocaleProvider does not reach them. This module names them in
 * Chinese: footer buttons take their visible text as their name (the label is removed), icon-only
 * buttons get a Chinese label. `watchChineseAriaLabels` applies it to everything already on the page and
 * to whatever appears later, so dialogs opened imperatively (Modal.confirm renders into its own root
 * outside every provider) are covered as well. Owns nothing else of the page.
 */

/** English label -> Chinese label; null removes the label so the visible (Chinese) text names the element. */
export const CHINESE_ARIA_LABELS: Readonly<Record<string, string | null>> = {
  confirm: null,
  cancel: null,
  close: '关闭',
  Close: '关闭',
  Previous: '上一页',
  Next: '下一页',
  'Page size selector': '每页条数',
  'Previous year': '上一年',
  'Previous month': '上个月',
  'Next month': '下个月',
  'Next year': '下一年',
  'Switch to date panel': '切换到日期',
  'Switch to time panel': '切换到时间',
  'Clear range input value': '清空日期范围',
  'Choose date': '选择日期',
  'Clear TreeSelect value': '清空选择',
  'Clear TagInput value': '清空输入',
  'Expand this row': '展开此行',
  'Filter data with this column': '按此列筛选',
  'Expand breadcrumb items': '展开路径',
};

const SELECTOR = Object.keys(CHINESE_ARIA_LABELS)
  .map((label) => `[aria-label="${label}"]`)
  .join(',');

/** Renames the English labels of `root` and its descendants. */
export function applyChineseAriaLabels(root: ParentNode): void {
  const elements = [...root.querySelectorAll(SELECTOR)];
  if (root instanceof Element && root.matches(SELECTOR)) elements.push(root);
  for (const element of elements) {
    const label = element.getAttribute('aria-label') ?? '';
    const chinese = CHINESE_ARIA_LABELS[label];
    if (chinese === undefined) continue;
    // A footer button without visible text (icon only) keeps a name.
    if (chinese === null && (element.textContent ?? '').trim() === '')
      element.setAttribute('aria-label', label === 'confirm' ? '确定' : '取消');
    else if (chinese === null) element.removeAttribute('aria-label');
    else element.setAttribute('aria-label', chinese);
  }
}

/** Keeps `root` (the document body) free of Semi's English labels; returns the function that stops watching. */
export function watchChineseAriaLabels(root: HTMLElement): () => void {
  applyChineseAriaLabels(root);
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'attributes') {
        if (record.target instanceof Element) applyChineseAriaLabels(record.target);
        continue;
      }
      for (const node of record.addedNodes) if (node instanceof Element) applyChineseAriaLabels(node);
    }
  });
  observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-label'] });
  return () => observer.disconnect();
}
