/**
 * The build leaves out parts of Semi components the app does not use (vite.config.ts, slimSemi): Table's
 * resizable columns, Tag's avatar, Select's collapsed tags, and the date-fns part of the Chinese locale
 * outside the date picker's chunk. The code must not reach for them, or it would throw (or show English
 * month names) in production.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEMI_LEFT_OUT } from '../../vite.config';

const root = path.resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const files = () =>
  [...sources(path.join(root, 'src')), ...sources(path.join(root, 'entries'))].map((file) => ({
    file: path.relative(root, file),
    text: fs.readFileSync(file, 'utf8'),
  }));

describe('Semi parts left out of the build', () => {
  it('are used nowhere in the code', () => {
    const props = SEMI_LEFT_OUT.map((part) => part.prop);
    expect(props).toEqual(['resizable', 'avatarSrc', 'ellipsisTrigger']);
    const uses = files().flatMap(({ file, text }) =>
      props.filter((prop) => new RegExp(`\\b${prop}\\b`).test(text)).map((prop) => `${file}: ${prop}`),
    );
    expect(uses).toEqual([]);
  });

  it('leave the date pickers their Chinese month names: Semi date and time pickers come only through date-picker-chunk.tsx', () => {
    const pickers = files().filter(({ text }) =>
      /import\s*\{[^}]*\b(?:DatePicker|TimePicker|Calendar)\b[^}]*\}\s*from\s*'@douyinfe\/semi-ui-19'/.test(text),
    );
    expect(pickers.map(({ file }) => file)).toEqual([path.join('src', 'shared', 'ui', 'date-picker-chunk.tsx')]);
  });
});
