import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearLocalStorage, getLocalItem, removeLocalItem, setLocalItem } from '../../../src/shared/adapters/local-storage';

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('local storage helper', () => {
  it('stores values as JSON and reads them back', () => {
    setLocalItem('gradeInfo', { id: 3, name: '高一' });
    expect(localStorage.getItem('gradeInfo')).toBe('{"id":3,"name":"高一"}');
    expect(getLocalItem('gradeInfo')).toEqual({ id: 3, name: '高一' });
    setLocalItem('step', 1);
    expect(getLocalItem('step')).toBe(1);
  });

  it('reads an empty object for a missing key', () => {
    expect(getLocalItem('missing')).toEqual({});
  });

  it('reads an empty object, without throwing, for corrupt JSON', () => {
    localStorage.setItem('broken', '{not json');
    expect(getLocalItem('broken')).toEqual({});
  });

  it('does not throw when the browser refuses to store, and says so', () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    expect(setLocalItem('a', 1)).toBe(false);
  });

  it('removes one key, or clears everything', () => {
    setLocalItem('a', 1);
    setLocalItem('b', 2);
    removeLocalItem('a');
    expect(getLocalItem('a')).toEqual({});
    expect(getLocalItem('b')).toBe(2);
    clearLocalStorage();
    expect(localStorage.length).toBe(0);
  });
});
