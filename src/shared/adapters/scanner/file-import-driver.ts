/**
 * A scanner driver over image files chosen by the user (a folder of scans exported by another scanning
 * program): each file is one page, in name order, handed over as an encoded image. Images only (JPEG,
 * PNG, BMP, WebP...); multi-page PDFs are not read (no PDF rasteriser in the client).
 * There is one "source", the chosen files; configure is accepted and ignored (the files are already scanned).
 */
import { DriverError, type RawImage } from '../../contract/scan';
import type { ScannerDriver } from './scanner-driver';

export const FILE_IMPORT_SOURCE_NAME = '从文件夹导入图片';

export function isImportableImage(file: Pick<File, 'type' | 'name'>): boolean {
  return file.type.startsWith('image/') || /\.(jpe?g|png|bmp|webp|gif|tiff?)$/i.test(file.name);
}

export function createFileImportDriver(getFiles: () => readonly File[]): ScannerDriver {
  let selected = false;
  return {
    async load() {
      return [FILE_IMPORT_SOURCE_NAME];
    },
    async select(index) {
      if (index !== 0) throw new DriverError('sourceNotSelectable', `no source ${index}`);
      selected = true;
    },
    async configure() {
      if (!selected) throw new DriverError('acquisition', 'source not selected');
    },
    acquire(onImage, onDone, onError) {
      const files = getFiles()
        .filter(isImportableImage)
        .sort((a, b) => a.name.localeCompare(b.name, 'zh-CN', { numeric: true }));
      let stopped = false;
      queueMicrotask(() => {
        if (stopped) return;
        // -1035: "There is no image" in the scanning service's error list.
        if (files.length === 0) return onError(-1035);
        for (const file of files) {
          if (stopped) return;
          const image: RawImage = { kind: 'encoded', blob: file, bitDepth: 24 };
          onImage(image);
        }
        onDone();
      });
      return () => {
        stopped = true;
      };
    },
    async close() {
      selected = false;
    },
  };
}
