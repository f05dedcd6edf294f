import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACCEPTED_TERMS,
  resolveRelativeDate,
} from '../../../../shared/conversation/server-tools/relative-date';
import { at } from './resolve-at';

const CONTEXT = { timezone: 'Europe/Berlin', now: at('2026-01-16T10:30:00+01:00') };

// The listed terms with N filled in, so every one can be asked for as the model would.
const CONCRETE_TERMS = ACCEPTED_TERMS.map((term) => term.replace('_N_', '_5_'));

describe('ACCEPTED_TERMS', () => {
  it.each(CONCRETE_TERMS)('%s resolves', (term) => {
    // Act
    const result = resolveRelativeDate(term, CONTEXT);

    // Assess
    expect(result.resolved).toBe(true);
  });

  it('has no duplicates', () => {
    // Assess
    expect(new Set(ACCEPTED_TERMS).size).toBe(ACCEPTED_TERMS.length);
  });

  it('resolves a term the same whatever its case, separators and surrounding spaces', () => {
    // Prepare: spellings of the same term as models and speech-to-text produce them.
    const spelling = fc.record({
      term: fc.constantFrom(...CONCRETE_TERMS),
      separator: fc.constantFrom(' ', '-', '_', '  ', ' - '),
      upperCase: fc.boolean(),
      padding: fc.constantFrom('', ' ', '\t', '  \n'),
    });

    fc.assert(
      fc.property(spelling, ({ term, separator, upperCase, padding }) => {
        const spelled = term.split('_').join(separator);
        const variant = `${padding}${upperCase ? spelled.toUpperCase() : spelled}${padding}`;

        // Act
        const canonical = resolveRelativeDate(term, CONTEXT);
        const respelled = resolveRelativeDate(variant, CONTEXT);

        // Assess: the same answer, apart from the echoed term.
        expect({ ...respelled, term }).toEqual(canonical);
      }),
      { numRuns: 300 },
    );
  });
});
