import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ScanSettingsDialog, scanSettingsDialogWidth } from '../../../src/features/scan/scan-settings-dialog';
import { ScanPreview } from '../../../src/features/scan/scan-preview';
import { createScannerSettingsStorage } from '../../../src/shared/adapters/scanner/scanner-settings-storage';
import { DEFAULT_SCANNER_SETTINGS, type ScannerSettings } from '../../../src/shared/contract/scan';

const scanners = [
  { id: 0, text: 'Canon DR-C225' },
  { id: 1, text: 'Fujitsu fi-7160' },
];

/** The dialog as a page composes it: opened from a button, saved through the station's storage. */
function Harness({ initial = DEFAULT_SCANNER_SETTINGS }: { initial?: ScannerSettings }) {
  const storage = createScannerSettingsStorage();
  const [open, setOpen] = useState(true);
  const [settings, setSettings] = useState(initial);
  return (
    <ScanSettingsDialog
      visible={open}
      scanners={scanners}
      settings={settings}
      onSave={(next) => {
        storage.save(next);
        setSettings(next);
        setOpen(false);
      }}
    />
  );
}

/** Semi draws the checked state on the radio's wrapper (the native input is not kept in step in jsdom). */
function isChecked(name: string): boolean {
  return screen.getByRole('radio', { name }).closest('.semi-radio')!.classList.contains('semi-radio-checked');
}

describe('ScanSettingsDialog', () => {
  it('is titled 扫描设置 and offers the scanner, the paper sizes and the subject-teacher choice', () => {
    render(<Harness />);
    const dialog = screen.getByRole('dialog');
    expect(screen.getByText('扫描设置')).toBeInTheDocument();
    expect(screen.getByText('请选择扫描仪')).toBeInTheDocument();
    for (const size of ['A4', 'A3', 'B5', 'B4', '16k']) expect(screen.getByRole('radio', { name: size })).toBeInTheDocument();
    expect(isChecked('A4')).toBe(true);
    expect(screen.getByText('试卷是否分配给学科老师')).toBeInTheDocument();
    expect(isChecked('否')).toBe(true);
    expect(isChecked('是')).toBe(false);
    expect(screen.getByRole('button', { name: '保存' })).toBeInTheDocument();
    expect(dialog).toBeInTheDocument();
  });

  it('cannot be closed by Esc, by clicking outside, or by a close button', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(screen.queryByRole('button', { name: /close|关闭/i })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    const mask = document.querySelector('.semi-modal-wrap');
    if (mask) await user.click(mask as HTMLElement);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(screen.getByText('扫描设置')).toBeVisible();
  });

  it('asks to choose the scanner again when the stored one is no longer listed', () => {
    render(<Harness initial={{ ...DEFAULT_SCANNER_SETTINGS, scannerIndex: 5, scannerName: 'Epson DS-530' }} />);
    expect(screen.getByText('请重新选择扫描仪')).toBeInTheDocument();
  });

  it('shows the stored scanner when it is still listed', () => {
    render(<Harness initial={{ ...DEFAULT_SCANNER_SETTINGS, scannerIndex: 1, scannerName: 'Fujitsu fi-7160' }} />);
    expect(screen.getByText('Fujitsu fi-7160')).toBeInTheDocument();
    expect(screen.queryByText('请选择扫描仪')).not.toBeInTheDocument();
  });

  it('stores the choices for this station on 保存 and closes', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByText('请选择扫描仪'));
    await user.click(await screen.findByRole('option', { name: /Fujitsu fi-7160/ }));
    await user.click(screen.getByRole('radio', { name: 'A3' }));
    await user.click(screen.getByRole('radio', { name: '是' }));
    await user.click(screen.getByRole('button', { name: '保存' }));
    expect(createScannerSettingsStorage().load()).toEqual({
      scannerIndex: 1,
      scannerName: 'Fujitsu fi-7160',
      paperSize: 11,
      scanSubject: true,
      duplex: true,
    });
    await waitFor(() => expect(screen.queryByRole('button', { name: '保存' })).not.toBeInTheDocument());
  });

  it.each([
    [375, '80%'],
    [549, '80%'],
    [550, '30%'],
    [1399, '30%'],
    [1400, '25%'],
    [1920, '25%'],
  ])('is %ipx screens wide → %s', (screenWidth, width) => {
    expect(scanSettingsDialogWidth(screenWidth)).toBe(width);
  });

  it('takes its width from the window', () => {
    window.innerWidth = 500;
    render(<Harness />);
    expect(document.querySelector('.semi-modal')).toHaveStyle({ width: '80%' });
    window.innerWidth = 1024;
  });
});

describe('ScanPreview', () => {
  it('is a 400px high container showing the latest page, or that nothing is scanned yet', () => {
    const { rerender } = render(<ScanPreview page={null} />);
    expect(screen.getByRole('figure', { name: '扫描预览' })).toHaveStyle({ height: '400px' });
    expect(screen.getByText('暂无扫描图像')).toBeInTheDocument();
    URL.createObjectURL ??= () => 'blob:page';
    URL.revokeObjectURL ??= () => undefined;
    const page = {
      imageId: 'a',
      fileName: 'a.jpg' as const,
      blob: new Blob(['x'], { type: 'image/jpeg' }),
      scanSubject: false,
      width: 2480,
      height: 3507,
      sequence: 2,
    };
    rerender(<ScanPreview page={page} pageCount={2} />);
    return waitFor(() => expect(screen.getByRole('img', { name: '第 2 张扫描图像' })).toBeInTheDocument());
  });
});
