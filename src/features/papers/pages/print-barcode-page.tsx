/**
 * /printBarcode: student code barcodes (jsbarcode) for a class, or any codes typed in, one label each.
 * The format is the teacher's choice; a code the format cannot carry shows a Chinese message in place
 * of its barcode. Width, height, margin and font size start at the spec's defaults.
 */
import { Banner, InputNumber, TextArea } from '@douyinfe/semi-ui-19';
import JsBarcode from 'jsbarcode';
import { useEffect, useMemo, useRef, useState } from 'react';
import { PrintSheet } from '../../../shared/ui/print-sheet';
import {
  BARCODE_DEFAULTS,
  BARCODE_FORMATS,
  barcodeInputError,
  type BarcodeFormat,
  type BarcodeOptions,
} from '../barcode-validation';
import { ClassSelect, useClasses } from '../class-select';
import { fetchStudents } from '../papers-api';
import { usePapersServices } from '../papers-services';
import { useBack } from '../use-back';
import styles from './print-pages.module.css';
import { LabelledSelect } from '../../../shared/ui/labelled-select';

type CodeLine = { code: string; name: string };

/** Lines of "code name" (the name is optional); blank lines are skipped. */
export function parseCodeLines(text: string): CodeLine[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const [code = '', ...rest] = line.split(/\s+/);
      return { code, name: rest.join(' ') };
    });
}

export function PrintBarcodePage() {
  const back = useBack();
  const { http } = usePapersServices();
  const [chosenClassId, setClassId] = useState<number | undefined>();
  const { classes } = useClasses();
  const classId = chosenClassId ?? classes[0]?.id;
  const [format, setFormat] = useState<BarcodeFormat>('CODE128');
  const [options, setOptions] = useState<BarcodeOptions>({ ...BARCODE_DEFAULTS });
  const [text, setText] = useState('');
  const lines = useMemo(() => parseCodeLines(text), [text]);

  useEffect(() => {
    if (!classId) return;
    let current = true;
    fetchStudents(http, classId).then(
      (students) => {
        if (current) setText(students.map((s) => `${s.code} ${s.name}`).join('\n'));
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [http, classId]);

  const setOption = (key: keyof BarcodeOptions) => (value: number | string) => {
    const n = Number(value);
    if (Number.isFinite(n) && n >= 0) setOptions((o) => ({ ...o, [key]: n }));
  };
  const invalidCount = lines.filter((line) => barcodeInputError(format, line.code) !== null).length;

  return (
    <PrintSheet
      onBack={back}
      title="打印条形码"
      printable={lines.length > 0 && invalidCount === 0}
      toolbar={
        <>
          <ClassSelect value={classId} onChange={setClassId} />
          <LabelledSelect
            label="条码格式"
            value={format}
            style={{ width: 140 }}
            optionList={BARCODE_FORMATS.map((f) => ({ value: f, label: f }))}
            onChange={(value) => setFormat(value as BarcodeFormat)}
          />
        </>
      }
    >
      <div className={styles.screenOnly}>
        {/* Labels in the look of Semi Form's horizontal layout, without Semi Form (20 KiB gz). */}
        <div className={styles.barcodeForm}>
          <div className={styles.barcodeField}>
            <span className={styles.barcodeLabel}>线宽</span>
            <InputNumber aria-label="线宽" min={1} max={4} value={options.width} onChange={setOption('width')} />
          </div>
          <div className={styles.barcodeField}>
            <span className={styles.barcodeLabel}>高度</span>
            <InputNumber aria-label="高度" min={20} max={300} value={options.height} onChange={setOption('height')} />
          </div>
          <div className={styles.barcodeField}>
            <span className={styles.barcodeLabel}>边距</span>
            <InputNumber aria-label="边距" min={0} max={50} value={options.margin} onChange={setOption('margin')} />
          </div>
          <div className={styles.barcodeField}>
            <span className={styles.barcodeLabel}>字号</span>
            <InputNumber aria-label="字号" min={8} max={40} value={options.fontSize} onChange={setOption('fontSize')} />
          </div>
        </div>
        <TextArea
          aria-label="条码内容"
          placeholder="每行一个：学号 姓名（姓名可省略）；选择班级可自动填入该班学生"
          autosize={{ minRows: 3, maxRows: 8 }}
          value={text}
          onChange={setText}
        />
        {invalidCount > 0 ? (
          <Banner
            type="danger"
            fullMode={false}
            closeIcon={null}
            description={`有 ${invalidCount} 个条码内容不符合 ${format} 格式，请修改后再打印`}
          />
        ) : null}
      </div>
      {lines.length === 0 ? (
        <p className={styles.placeholder}>请选择班级或输入条码内容</p>
      ) : (
        <div className={styles.labelGrid}>
          {lines.map((line, i) => (
            <BarcodeLabel key={`${i}-${line.code}`} line={line} format={format} options={options} />
          ))}
        </div>
      )}
    </PrintSheet>
  );
}

function BarcodeLabel({ line, format, options }: { line: CodeLine; format: BarcodeFormat; options: BarcodeOptions }) {
  const svg = useRef<SVGSVGElement>(null);
  const error = barcodeInputError(format, line.code);

  useEffect(() => {
    if (error || !svg.current) return;
    JsBarcode(svg.current, line.code, { format, ...options, font: 'monospace', valid: () => undefined });
  }, [error, line.code, format, options]);

  return (
    <figure className={styles.label} aria-label={`条形码 ${line.code}`}>
      {error ? (
        <p role="alert" className={styles.labelError}>
          {line.code}：{error}
        </p>
      ) : (
        <svg ref={svg} className={styles.barcode} role="img" aria-label={`${format} 条码 ${line.code}`} />
      )}
      {line.name ? <figcaption>{line.name}</figcaption> : null}
    </figure>
  );
}
