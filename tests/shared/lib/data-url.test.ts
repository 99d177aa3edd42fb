import { describe, expect, it } from 'vitest';
import { dataUrlToFile } from '../../../src/shared/lib/data-url';

async function bytesOf(file: File): Promise<number[]> {
  return [...new Uint8Array(await file.arrayBuffer())];
}

describe('dataUrlToFile', () => {
  it('turns a base64 data URL into a file with its media type and the given name', async () => {
    const file = dataUrlToFile('data:image/jpeg;base64,/9j/AA==', 'page-1.jpg');
    expect(file).toBeInstanceOf(File);
    expect(file!.name).toBe('page-1.jpg');
    expect(file!.type).toBe('image/jpeg');
    expect(await bytesOf(file!)).toEqual([0xff, 0xd8, 0xff, 0x00]);
  });

  it('decodes a percent-encoded (non-base64) data URL as text', async () => {
    const file = dataUrlToFile(`data:text/plain;charset=utf-8,${encodeURIComponent('学年')}`, 'a.txt');
    expect(file!.type).toBe('text/plain');
    expect(await file!.text()).toBe('学年');
  });

  it('answers null for input that is not a data URL or not valid base64', () => {
    expect(dataUrlToFile('', 'x')).toBeNull();
    expect(dataUrlToFile('https://example.com/a.jpg', 'x')).toBeNull();
    expect(dataUrlToFile('data:image/png;base64,***', 'x')).toBeNull();
    expect(dataUrlToFile('data:image/png;base64,A', 'x')).toBeNull();
    expect(dataUrlToFile('data:text/plain,%E0%A4%A', 'x')).toBeNull();
  });
});
