import { describe, expect, it } from 'vitest';
import { LruMap } from '../../../shared/adapters/system/lru-map';

describe('LruMap: a bounded map that keeps the most recently used', () => {
  it('drops the least recently used past its capacity, a read counting as a use', () => {
    // Prepare
    const map = new LruMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);

    // Act: `a` read, so `b` is the least recently used when `c` comes.
    map.get('a');
    map.set('c', 3);

    // Assess
    expect(map.size).toBe(2);
    expect(map.get('b')).toBeUndefined();
    expect(map.get('a')).toBe(1);
    expect(map.get('c')).toBe(3);
  });

  it('replaces a value in place without growing', () => {
    // Prepare
    const map = new LruMap<string, number>(2);
    map.set('a', 1);

    // Act
    map.set('a', 2);

    // Assess
    expect(map.size).toBe(1);
    expect(map.get('a')).toBe(2);
  });
});
