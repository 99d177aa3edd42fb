/**
 * The scanner settings of this station, kept in local storage under `scannerSettings` (per browser, so
 * per scan station). Reads never throw: a missing or corrupt entry gives the defaults (A4, duplex on).
 * Note that logging out clears all local storage (spec §4), these settings included.
 */
import { DEFAULT_SCANNER_SETTINGS, scannerSettingsSchema, type ScannerSettings } from '../../contract/scan';
import { getLocalItem, setLocalItem } from '../local-storage';

export const SCANNER_SETTINGS_STORAGE_KEY = 'scannerSettings';

export interface ScannerSettingsStorage {
  load(): ScannerSettings;
  /** False when the browser refused to store them. */
  save(settings: ScannerSettings): boolean;
}

export function createScannerSettingsStorage(key: string = SCANNER_SETTINGS_STORAGE_KEY): ScannerSettingsStorage {
  return {
    load() {
      const parsed = scannerSettingsSchema.safeParse(getLocalItem(key));
      return parsed.success ? parsed.data : DEFAULT_SCANNER_SETTINGS;
    },
    save(settings) {
      return setLocalItem(key, scannerSettingsSchema.parse(settings));
    },
  };
}
