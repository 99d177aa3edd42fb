import { describe, expect, it } from 'vitest';
import { mergeUnique } from '../../../src/shared/lib/merge-unique';

describe('mergeUnique', () => {
  it('appends the values of the second list not already in the first, each once', () => {
    expect(mergeUnique([1, 2, 2], [2, 3, 3, 1, 4])).toEqual([1, 2, 3, 4]);
  });

  it('compares objects by the key given, keeping the first occurrence', () => {
    const first = [{ id: 1, name: 'a' }];
    const second = [
      { id: 1, name: 'a again' },
      { id: 2, name: 'b' },
    ];
    expect(mergeUnique(first, second, (item) => item.id)).toEqual([
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
    ]);
  });

  it('does not change its inputs', () => {
    const first = [1];
    mergeUnique(first, [2]);
    expect(first).toEqual([1]);
  });
});
