/**
 * The build leaves out the Semi Form field types the app does not use (vite.config.ts, slimSemiForm): a
 * Form.X the code uses must be on the list, or it would throw in production.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEMI_FORM_FIELDS } from '../../vite.config';

const root = path.resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Form members that are not field types. */
const NOT_FIELDS = new Set(['Slot', 'Section', 'Label', 'ErrorMessage', 'InputGroup']);

describe('Semi Form field types in the build', () => {
  it('includes every Form field type the code uses', () => {
    const used = new Set<string>();
    for (const file of [...sources(path.join(root, 'src')), ...sources(path.join(root, 'entries'))]) {
      for (const match of fs.readFileSync(file, 'utf8').matchAll(/\bForm\.([A-Z][A-Za-z]+)/g)) {
        if (!NOT_FIELDS.has(match[1]!)) used.add(match[1]!);
      }
    }
    expect(used.size).toBeGreaterThan(0);
    expect([...used].filter((name) => !SEMI_FORM_FIELDS.includes(name))).toEqual([]);
  });
});
