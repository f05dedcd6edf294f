import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  clearCommandSetCache,
  commandSetHash,
  compileCommandSet,
  compileKnownCommandSet,
} from '../../../shared/params';
import { CostWeightedCache } from '../../../shared/params/command-set/command-set-cache';
import { compileOrThrow, loadFixture, typedCommand } from '../support/command-sets';

/** The same JSON value with the keys of every object in reverse order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, inner]) => [key, reversedKeys(inner)]),
  );
}

describe('canonicalJson', () => {
  it.each([
    [{ b: 1, a: [{ d: 2, c: 3 }] }, '{"a":[{"c":3,"d":2}],"b":1}'],
    [{ a: undefined, b: null }, '{"b":null}'],
    [[undefined, 'x'], '[null,"x"]'],
    ['text', '"text"'],
  ])('writes %j as %s', (value, json) => {
    // Act
    const canonical = canonicalJson(value);

    // Assess
    expect(canonical).toBe(json);
  });
});

describe('commandSetHash', () => {
  it('does not depend on key order', () => {
    // Prepare
    const fixture = loadFixture();

    // Act
    const hashes = [
      commandSetHash(fixture),
      commandSetHash(reversedKeys(fixture) as typeof fixture),
    ];

    // Assess
    expect(hashes[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(hashes[1]).toBe(hashes[0]);
  });

  it('ignores the other fields of the body and absent lists', () => {
    // Prepare
    const commands = [typedCommand('a', [])];

    // Act
    const plain = commandSetHash({ available_commands: commands });
    const withBody = commandSetHash({
      available_commands: commands,
      client_tools: [],
      conversation_id: 'x',
    } as never);

    // Assess
    expect(withBody).toBe(plain);
  });

  it('changes with the content', () => {
    // Prepare
    const fixture = loadFixture();
    const changed = loadFixture();
    changed.available_commands[0] = { ...changed.available_commands[0], description: 'other' };

    // Act
    const hashes = [commandSetHash(fixture), commandSetHash(changed)];

    // Assess
    expect(hashes[1]).not.toBe(hashes[0]);
  });
});

describe('compileCommandSet cache', () => {
  it('returns the compiled set of an equal registration, key order aside, and exposes its hash', () => {
    // Prepare
    clearCommandSetCache();
    const first = compileOrThrow(loadFixture());

    // Act
    const again = compileOrThrow(reversedKeys(loadFixture()) as ReturnType<typeof loadFixture>);

    // Assess
    expect(again).toBe(first);
    expect(first.hash).toBe(commandSetHash(loadFixture()));
  });

  it('compiles anew after clearCommandSetCache', () => {
    // Prepare
    const first = compileOrThrow(loadFixture());
    clearCommandSetCache();

    // Act
    const again = compileOrThrow(loadFixture());

    // Assess
    expect(again).not.toBe(first);
    expect(again.hash).toBe(first.hash);
  });

  it('keys on the reserved names too', () => {
    // Prepare
    const source = { available_commands: [typedCommand('resolve_relative_date', [])] };

    // Act
    const free = compileCommandSet(source);
    const reserved = compileCommandSet(source, { reservedNames: ['resolve_relative_date'] });

    // Assess
    expect(free.ok).toBe(true);
    expect(reserved.ok ? [] : reserved.issues.map((issue) => issue.code)).toEqual([
      'reserved_name',
    ]);
  });
});

describe('CostWeightedCache', () => {
  it('evicts the least recently used entry beyond its capacity', () => {
    // Prepare
    const cache = new CostWeightedCache<number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a');

    // Act
    cache.set('c', 3);

    // Assess
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.size]).toEqual([
      1,
      undefined,
      3,
      2,
    ]);
  });
});

describe('row 6: an expensive set is not evicted by cheap ones', () => {
  it('an entry of cost 1,000 outlives 100 cheap ones used after it, and ages out later', () => {
    // Prepare
    const cache = new CostWeightedCache<string>(10);
    cache.set('expensive', 'compiled for 1.9 s', 1_000);

    // Act
    for (let index = 0; index < 100; index += 1) cache.set(`cheap_${index}`, 'cheap', 5);
    const kept = cache.get('expensive');
    for (let index = 0; index < 2_000; index += 1) cache.set(`later_${index}`, 'cheap', 5);

    // Assess
    expect(kept).toBe('compiled for 1.9 s');
    expect(cache.get('expensive')).toBeUndefined();
    expect(cache.size).toBe(10);
  });

  it('a large registration stays compiled while 100 small sets come and go', () => {
    // Prepare: a registration of 300 patterns, then 100 other small command sets.
    clearCommandSetCache();
    const large = {
      client_tools: Array.from({ length: 30 }, (_, tool) => ({
        type: 'function',
        function: {
          name: `tool_${tool}`,
          parameters: {
            type: 'object',
            properties: Object.fromEntries(
              Array.from({ length: 10 }, (_, index) => [
                `p${index}`,
                { type: 'string', pattern: `^[a-z]{1,20}${tool}_${index}$` },
              ]),
            ),
          },
        },
      })),
    };
    compileOrThrow(large);
    for (let index = 0; index < 100; index += 1) {
      compileOrThrow({ available_commands: [typedCommand(`small_${index}`, [])] });
    }
    let reads = 0;

    // Act
    const again = compileKnownCommandSet(commandSetHash(large), () => {
      reads += 1;
      return large;
    });

    // Assess: answered from the cache, never compiled again.
    expect(again.ok).toBe(true);
    expect(reads).toBe(0);
  });
});

describe('compileKnownCommandSet', () => {
  it('answers a cached set from its stored hash without reading the source', () => {
    // Prepare
    clearCommandSetCache();
    const source = loadFixture();
    const first = compileOrThrow(source);
    let reads = 0;

    // Act
    const again = compileKnownCommandSet(commandSetHash(source), () => {
      reads += 1;
      return source;
    });

    // Assess
    expect(reads).toBe(0);
    expect(again.ok && again.value).toBe(first);
  });

  it('reads, hashes and compiles the source on a miss', () => {
    clearCommandSetCache();
    const source = loadFixture();
    let reads = 0;
    const compiled = compileKnownCommandSet(commandSetHash(source), () => {
      reads += 1;
      return source;
    });
    expect(reads).toBe(1);
    expect(compiled.ok && compiled.value.commands.size).toBe(16);
  });
});
