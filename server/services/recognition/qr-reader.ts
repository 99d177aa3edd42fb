/**
 * Reads a sheet's QR code with zxing-wasm, on a small crop of the page only (the whole page would cost
 * tens of times more). The reader's wasm is loaded from node_modules once per thread: zxing-wasm would
 * otherwise fetch it from a CDN, which a school's server may not reach and must not depend on.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';

const WASM_MODULE = 'zxing-wasm/reader/zxing_reader.wasm';

let ready: Promise<void> | undefined;

/** Loads and instantiates the reader (idempotent; the first read does it too). */
export function prepareQrReader(): Promise<void> {
  ready ??= (async () => {
    const wasm = await readFile(createRequire(import.meta.url).resolve(WASM_MODULE));
    await prepareZXingModule({
      overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer },
      fireImmediately: true,
    });
  })().catch((error: unknown) => {
    ready = undefined;
    throw error;
  });
  return ready;
}

export type RgbaCrop = { data: Uint8ClampedArray; width: number; height: number };

export type QrRead = {
  text: string;
  /** The symbol's corners in crop pixels, named as the symbol reads (top-left is by a finder pattern). */
  topLeft: { x: number; y: number };
  topRight: { x: number; y: number };
  bottomLeft: { x: number; y: number };
  bottomRight: { x: number; y: number };
};

/** The first QR code in the crop, or null. `harder` spends more time on damaged or blurred symbols. */
export async function readQr(crop: RgbaCrop, harder = false): Promise<QrRead | null> {
  if (crop.width < 21 || crop.height < 21) return null;
  await prepareQrReader();
  const imageData = { data: crop.data, width: crop.width, height: crop.height, colorSpace: 'srgb' } as unknown as ImageData;
  const results = await readBarcodes(imageData, {
    formats: ['QRCode'],
    tryHarder: harder,
    tryRotate: true,
    tryInvert: false,
    tryDownscale: harder,
    maxNumberOfSymbols: 1,
  });
  const found = results.find((r) => r.isValid && r.text.length > 0);
  if (!found) return null;
  const { topLeft, topRight, bottomLeft, bottomRight } = found.position;
  return { text: found.text, topLeft, topRight, bottomLeft, bottomRight };
}
