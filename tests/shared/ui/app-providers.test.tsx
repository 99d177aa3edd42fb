import { Button, Modal } from '@douyinfe/semi-ui-19';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../../../src/shared/ui/app-providers';
import { applyChineseAriaLabels } from '../../../src/shared/ui/chinese-aria-labels';

function DialogDemo() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>打开</Button>
      <Modal title="删除试卷" visible={open} onOk={() => setOpen(false)} onCancel={() => setOpen(false)}>
        确定删除吗？
      </Modal>
    </>
  );
}

afterEach(() => Modal.destroyAll());

describe('AppProviders: dialog buttons named in Chinese', () => {
  it('names a dialog’s buttons by their Chinese text and its close button 关闭', async () => {
    render(
      <AppProviders>
        <DialogDemo />
      </AppProviders>,
    );
    await userEvent.click(screen.getByRole('button', { name: '打开' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() =>
      expect(dialog.querySelector('[aria-label="confirm"],[aria-label="cancel"],[aria-label="close"]')).toBeNull(),
    );
    expect(screen.getByRole('button', { name: '确定' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '取消' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '关闭' })).toBeInTheDocument();
  });

  it('also names the buttons of an imperative Modal.confirm, rendered outside the providers', async () => {
    render(
      <AppProviders>
        <span>页面</span>
      </AppProviders>,
    );
    act(() => {
      Modal.confirm({ title: '替换试题篮', content: '确定吗？', okText: '替换', cancelText: '保留当前内容' });
    });
    expect(await screen.findByRole('button', { name: '替换' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '保留当前内容' })).toBeInTheDocument();
    expect(document.querySelector('[aria-label="confirm"],[aria-label="cancel"]')).toBeNull();
  });

  it('gives an icon-only English-labelled button a Chinese name', () => {
    const holder = document.createElement('div');
    holder.innerHTML =
      '<button aria-label="Previous"></button><button aria-label="confirm"></button><button aria-label="保存">x</button>';
    applyChineseAriaLabels(holder);
    expect([...holder.querySelectorAll('button')].map((b) => b.getAttribute('aria-label'))).toEqual(['上一页', '确定', '保存']);
  });
});
