import { describe, expect, it } from 'vitest';
import { getQueryParam } from '../../../src/shared/lib/query-param';

describe('getQueryParam', () => {
  it('reads a parameter from a search string with the leading question mark', () => {
    expect(getQueryParam('?orgId=12&isCreator=true', 'orgId')).toBe('12');
    expect(getQueryParam('?orgId=12&isCreator=true', 'isCreator')).toBe('true');
  });

  it('reads a parameter from a search string without the question mark', () => {
    expect(getQueryParam('orgId=7', 'orgId')).toBe('7');
  });

  it('decodes percent-encoded Chinese values', () => {
    expect(getQueryParam(`?name=${encodeURIComponent('高一')}`, 'name')).toBe('高一');
  });

  it('answers null for an absent parameter and empty string for an empty one', () => {
    expect(getQueryParam('?a=1', 'b')).toBeNull();
    expect(getQueryParam('', 'a')).toBeNull();
    expect(getQueryParam('?a=', 'a')).toBe('');
  });
});
