import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CallCheck, NormalizationPolicy } from '../../../shared/params';
import { deepFrozen, messyArguments, validArguments } from '../support/arbitrary-arguments';
import { compileOrThrow, loadFixture } from '../support/command-sets';

const set = compileOrThrow(loadFixture());
const commands = [...set.commands.values()];
const POLICIES: readonly NormalizationPolicy[] = ['strict', 'lossless', 'lenient'];

const validCall = fc
  .constantFrom(...commands)
  .chain((command) =>
    validArguments(command).map((args) => ({ name: command.name, arguments: deepFrozen(args) })),
  );

const messyCall = fc
  .constantFrom(...commands)
  .chain((command) =>
    messyArguments(command).map((args) => ({ name: command.name, arguments: deepFrozen(args) })),
  );

function withoutRepairs(check: CallCheck): unknown {
  return check.ok ? { ok: true, arguments: check.arguments } : { ok: false, issues: check.issues };
}

describe.each(POLICIES)('normalization properties under %s', (policy) => {
  it('accepts arguments generated from each tool schema as they are', () => {
    fc.assert(
      fc.property(validCall, (call) => {
        // Act
        const check = set.check(call, policy);

        // Assess
        expect(check).toEqual({ ok: true, arguments: call.arguments, repairs: [] });
        expect(check.ok && check.arguments).toBe(call.arguments);
      }),
    );
  });

  it('is idempotent: normalizing the result again changes nothing', () => {
    fc.assert(
      fc.property(messyCall, (call) => {
        // Act
        const once = set.normalize(call, policy);
        const twice = set.normalize(
          { name: call.name, arguments: deepFrozen(once.arguments) },
          policy,
        );

        // Assess
        expect(twice.repairs).toEqual([]);
        expect(twice.arguments).toEqual(once.arguments);
      }),
    );
  });

  it('validates the normalized arguments exactly as it validates the call', () => {
    fc.assert(
      fc.property(messyCall, (call) => {
        // Act
        const direct = set.check(call, policy);
        const normalized = set.check(
          { name: call.name, arguments: set.normalize(call, policy).arguments },
          policy,
        );

        // Assess
        expect(withoutRepairs(normalized)).toEqual(withoutRepairs(direct));
      }),
    );
  });

  it('never changes a valid value, whatever its neighbours', () => {
    const mixed = fc
      .constantFrom(...commands)
      .chain((command) =>
        fc.tuple(
          fc.constant(command.name),
          validArguments(command),
          messyArguments(command),
          fc.subarray(command.parameters.map((parameter) => parameter.name)),
        ),
      );
    fc.assert(
      fc.property(mixed, ([name, valid, messy, keepValid]) => {
        // Prepare
        const args = deepFrozen({
          ...messy,
          ...Object.fromEntries(
            keepValid.filter((key) => key in valid).map((key) => [key, valid[key]]),
          ),
        });

        // Act
        const normalized = set.normalize({ name, arguments: args }, policy);

        // Assess
        for (const key of keepValid.filter((candidate) => candidate in valid)) {
          expect((normalized.arguments as Record<string, unknown>)[key]).toBe(valid[key]);
        }
      }),
    );
  });
});
