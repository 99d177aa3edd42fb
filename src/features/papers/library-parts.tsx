/**
 * What 校本资料's two lists (its papers and its question sets) and 我的试卷 share: the search box over
 * names, the 撤回 / 移除 button of a shared item with its confirmation, and the line that says where an
 * item is filed. Each list keeps its own columns, other actions and words for what stays with the author.
 */
import { IconSearch } from '@douyinfe/semi-icons';
import { Button, Input, Modal } from '@douyinfe/semi-ui-19';
import { useState } from 'react';

/**
 * The search box over names (试卷名称, 合集名称) and its 搜索 button. `onSearch` gets the trimmed keyword
 * on 搜索 or Enter, and '' as soon as the box is cleared.
 */
export function NameSearch({ label, width, onSearch }: { label: string; width: number; onSearch: (keyword: string) => void }) {
  const [input, setInput] = useState('');
  const search = () => onSearch(input.trim());
  return (
    <>
      <Input
        aria-label={label}
        placeholder={`按${label}搜索`}
        prefix={<IconSearch />}
        showClear
        maxLength={60}
        value={input}
        onChange={(value) => {
          setInput(value);
          if (value === '') onSearch('');
        }}
        onEnterPress={search}
        style={{ width }}
      />
      <Button onClick={search}>搜索</Button>
    </>
  );
}

/**
 * 撤回 (the author's own item) or 移除 (an admin, a colleague's) from 校本资料, after a confirmation that
 * says what stays: `kept` is the sentence about the item itself (试卷本身保留在作者的我的试卷中).
 * `onConfirm` runs while the confirmation's button spins.
 */
export function WithdrawButton({
  name,
  mine,
  kept,
  onConfirm,
}: {
  name: string;
  mine: boolean;
  kept: string;
  onConfirm: () => Promise<void>;
}) {
  const verb = mine ? '撤回' : '移除';
  const confirm = () =>
    Modal.confirm({
      title: `从校本资料${verb}「${name}」？`,
      content: `${kept}；已被复制的副本不受影响。`,
      okText: verb,
      cancelText: '取消',
      okButtonProps: { type: 'danger' },
      onOk: onConfirm,
    });
  return (
    <Button size="small" theme="borderless" type="danger" aria-label={`${verb}：${name}`} onClick={confirm}>
      {verb}
    </Button>
  );
}

/** 「数学 · 2026级 · 有理数」: where an item of 校本资料 is filed (its chapter only if it has one). */
export const filingLine = (item: { subject: { name: string }; schoolYear: { name: string } }, chapter: { name: string } | null) =>
  `${item.subject.name} · ${item.schoolYear.name}${chapter ? ` · ${chapter.name}` : ''}`;

/** The withdrawn item's toast: 已撤回「…」 for the author, 已从校本资料移除「…」 for an admin. */
export const withdrawnToast = (name: string, mine: boolean) => (mine ? `已撤回「${name}」` : `已从校本资料移除「${name}」`);
