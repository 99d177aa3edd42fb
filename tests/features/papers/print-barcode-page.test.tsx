import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { BARCODE_DEFAULTS, BARCODE_RULES, barcodeInputError } from '../../../src/features/papers/barcode-validation';
import { PrintBarcodePage } from '../../../src/features/papers/pages/print-barcode-page';
import { fakeHttp, renderWithPapers } from './papers-test-kit';

const STUDENTS = [
  { id: 1, classId: 4, name: '张三', code: '2026010101' },
  { id: 2, classId: 4, name: '李四', code: '2026010102' },
];

function renderPage() {
  const fake = fakeHttp((url) => {
    if (url === '/api/system/class') return [{ id: 4, name: '初一(1)班' }];
    if (url === '/api/classes/4/students') return STUDENTS;
    throw new Error(`unexpected ${url}`);
  });
  renderWithPapers(<PrintBarcodePage />, fake.http, '/printBarcode');
  return fake;
}

async function chooseFormat(format: string) {
  const user = userEvent.setup();
  const picker = screen.getByRole('combobox', { name: '条码格式' });
  await user.click(picker.querySelector('.semi-select-selection-text') ?? picker);
  // An option's name starts with its tick icon's label ("tick EAN13").
  await user.click(await screen.findByRole('option', { name: new RegExp(`(^|\\s)${format}$`) }));
}

describe('barcode validation', () => {
  it('wants a full EAN13 with a correct check digit', () => {
    expect(barcodeInputError('EAN13', '5901234123457')).toBeNull();
    expect(barcodeInputError('EAN13', '5901234123458')).toBe('EAN13 需要 13 位数字，且最后一位校验位正确');
    expect(barcodeInputError('EAN13', '590123412345')).toBe(BARCODE_RULES.EAN13);
  });

  it('keeps pharmacode within 3..131070', () => {
    expect(barcodeInputError('pharmacode', '3')).toBeNull();
    expect(barcodeInputError('pharmacode', '131070')).toBeNull();
    expect(barcodeInputError('pharmacode', '2')).toBe('pharmacode 需要 3 到 131070 之间的整数');
    expect(barcodeInputError('pharmacode', '131071')).toBe(BARCODE_RULES.pharmacode);
  });

  it('asks for content when there is none, and rejects what a symbology cannot carry', () => {
    expect(barcodeInputError('CODE128', ' ')).toBe('请输入条码内容');
    expect(barcodeInputError('CODE128', '学号')).toBe(BARCODE_RULES.CODE128);
    expect(barcodeInputError('MSI', '12a')).toBe('MSI 只能包含数字');
    expect(barcodeInputError('UPC', '036000291452')).toBeNull();
    expect(barcodeInputError('ITF14', '98765432109213')).toBeNull();
    expect(barcodeInputError('EAN8', '96385075')).toBe(BARCODE_RULES.EAN8);
  });
});

describe('/printBarcode', () => {
  it("starts from the spec's defaults and draws the class's student codes with their names", async () => {
    renderPage();
    expect(screen.getByRole('spinbutton', { name: '线宽' })).toHaveValue(String(BARCODE_DEFAULTS.width));
    expect(screen.getByRole('spinbutton', { name: '高度' })).toHaveValue(String(BARCODE_DEFAULTS.height));
    expect(screen.getByRole('spinbutton', { name: '边距' })).toHaveValue(String(BARCODE_DEFAULTS.margin));
    expect(screen.getByRole('spinbutton', { name: '字号' })).toHaveValue(String(BARCODE_DEFAULTS.fontSize));
    expect(await screen.findByRole('img', { name: 'CODE128 条码 2026010101' })).toBeInTheDocument();
    expect(screen.getByText('李四')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /打印/ })).toBeEnabled();
  });

  it('shows a Chinese error in place of each code the chosen format cannot carry, and blocks printing', async () => {
    renderPage();
    await screen.findByRole('img', { name: 'CODE128 条码 2026010101' });
    await chooseFormat('EAN13');
    const label = screen.getByRole('figure', { name: '条形码 2026010101' });
    expect(within(label).getByRole('alert')).toHaveTextContent('2026010101：EAN13 需要 13 位数字，且最后一位校验位正确');
    expect(screen.getByText('有 2 个条码内容不符合 EAN13 格式，请修改后再打印')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /打印/ })).toBeDisabled();
  });

  it('draws a valid EAN13 typed in by hand and explains a bad pharmacode', async () => {
    renderPage();
    await screen.findByRole('img', { name: 'CODE128 条码 2026010101' });
    await chooseFormat('EAN13');
    fireEvent.change(screen.getByRole('textbox', { name: '条码内容' }), { target: { value: '5901234123457 样品' } });
    expect(await screen.findByRole('img', { name: 'EAN13 条码 5901234123457' })).toBeInTheDocument();
    await chooseFormat('pharmacode');
    fireEvent.change(screen.getByRole('textbox', { name: '条码内容' }), { target: { value: '2' } });
    expect(await screen.findByText('2：pharmacode 需要 3 到 131070 之间的整数')).toBeInTheDocument();
  });
});
