/**
 * The scan settings dialog (扫描设置, spec §2): scanner, paper size and whether papers are assigned to
 * subject teachers. It cannot be dismissed (no mask click, no Esc, no close button): 保存 hands the
 * choices to `onSave`, whose caller stores them for this station and closes the dialog.
 */
import { Button, Modal, Radio, RadioGroup, Select, Typography } from '@douyinfe/semi-ui-19';
import { useState, useSyncExternalStore } from 'react';
import { isChosenSourceListed } from '../../machines/scanner.machine';
import { PAPER_SIZE_OPTIONS, type PaperSizeCode, type ScannerOption, type ScannerSettings } from '../../shared/contract/scan';
import styles from './scan.module.css';

export const SCAN_SETTINGS_TITLE = '扫描设置';
export const CHOOSE_SCANNER_PLACEHOLDER = '请选择扫描仪';
export const RECHOOSE_SCANNER_PLACEHOLDER = '请重新选择扫描仪';
export const SCAN_SUBJECT_LABEL = '试卷是否分配给学科老师';

/** Spec §2: 80% under 550px of screen width, 30% under 1400px, otherwise 25%. */
export function scanSettingsDialogWidth(screenWidth: number): '80%' | '30%' | '25%' {
  if (screenWidth < 550) return '80%';
  if (screenWidth < 1400) return '30%';
  return '25%';
}

function useWindowWidth(): number {
  return useSyncExternalStore(
    (onChange) => {
      window.addEventListener('resize', onChange);
      return () => window.removeEventListener('resize', onChange);
    },
    () => window.innerWidth,
    () => 1920,
  );
}

export type ScanSettingsDialogProps = {
  visible: boolean;
  /** The scanning component's sources (id = index, text = name). */
  scanners: readonly ScannerOption[];
  /** The stored settings the dialog starts from. */
  settings: ScannerSettings;
  onSave: (settings: ScannerSettings) => void;
};

export function ScanSettingsDialog({ visible, scanners, settings, onSave }: ScanSettingsDialogProps) {
  const width = scanSettingsDialogWidth(useWindowWidth());
  return (
    <Modal
      title={SCAN_SETTINGS_TITLE}
      visible={visible}
      width={width}
      maskClosable={false}
      closeOnEsc={false}
      closable={false}
      footer={null}
    >
      {/* Mounted only while open, so each opening starts from the stored settings. */}
      {visible && <SettingsForm scanners={scanners} settings={settings} onSave={onSave} />}
    </Modal>
  );
}

function SettingsForm({ scanners, settings, onSave }: Omit<ScanSettingsDialogProps, 'visible'>) {
  const sources = scanners.map((s) => s.text);
  const [draft, setDraft] = useState<ScannerSettings>(() =>
    isChosenSourceListed(settings, sources) ? settings : { ...settings, scannerIndex: null, scannerName: null },
  );
  // A choice was stored but its scanner is gone: ask to choose again.
  const lost = settings.scannerIndex !== null && !isChosenSourceListed(settings, sources);
  return (
    <div className={styles.settings}>
      <label className={styles.field}>
        <Typography.Text strong>扫描仪</Typography.Text>
        <Select
          aria-label="扫描仪"
          placeholder={lost && draft.scannerIndex === null ? RECHOOSE_SCANNER_PLACEHOLDER : CHOOSE_SCANNER_PLACEHOLDER}
          value={draft.scannerIndex ?? undefined}
          optionList={scanners.map((s) => ({ value: s.id, label: s.text }))}
          onChange={(value) => {
            const index = value as number;
            setDraft((d) => ({ ...d, scannerIndex: index, scannerName: sources[index] ?? null }));
          }}
          style={{ width: '100%' }}
          // Without the closing animation the choice applies at once (the controlled Select reports it
          // only when the animation ends).
          motion={false}
        />
      </label>
      <div className={styles.field}>
        <Typography.Text strong id="scan-paper-size">
          纸张大小
        </Typography.Text>
        <RadioGroup
          aria-labelledby="scan-paper-size"
          value={draft.paperSize}
          onChange={(event) => setDraft((d) => ({ ...d, paperSize: event.target.value as PaperSizeCode }))}
        >
          {PAPER_SIZE_OPTIONS.map((o) => (
            <Radio key={o.code} value={o.code}>
              {o.label}
            </Radio>
          ))}
        </RadioGroup>
      </div>
      <div className={styles.field}>
        <Typography.Text strong id="scan-subject">
          {SCAN_SUBJECT_LABEL}
        </Typography.Text>
        <RadioGroup
          aria-labelledby="scan-subject"
          value={draft.scanSubject ? 1 : 0}
          onChange={(event) => setDraft((d) => ({ ...d, scanSubject: event.target.value === 1 }))}
        >
          <Radio value={1}>是</Radio>
          <Radio value={0}>否</Radio>
        </RadioGroup>
      </div>
      <div className={styles.footer}>
        <Button theme="solid" type="primary" onClick={() => onSave(draft)}>
          保存
        </Button>
      </div>
    </div>
  );
}
