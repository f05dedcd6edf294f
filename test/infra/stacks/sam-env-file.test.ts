import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from '../../../infra/stacks/voice-routes';
import { handlerSettings } from '../../../shared/adapters/config/settings-table';
import { type SharedJccAppVariant, sharedJccApp, sharedJccAppVariants } from '../shared-jcc-apps';

const samParameters: Record<string, string> = JSON.parse(
  readFileSync(join(repositoryRoot, 'infra', 'sam', 'env.json'), 'utf8'),
).Parameters;

/**
 * Variables whose value `sam local` takes from the template, and why: the same synth set the
 * function's timeout beside them.
 */
const TEMPLATE_DECIDES: Readonly<Record<string, string>> = {
  TURN_DEADLINE_MS: "derived with the function's timeout in the same template (turn-timing.ts)",
};

/** A variable's value when the stack leaves it at the handlers' table default. */
function tableDefault(name: string): string {
  const setting = (handlerSettings as Record<string, { default: unknown; derived?: true }>)[name];
  if (setting === undefined || setting.default === null || setting.derived) return '';
  return String(setting.default);
}

describe.each(Object.keys(sharedJccAppVariants) as SharedJccAppVariant[])(
  'infra/sam/env.json against the %s app',
  (variant) => {
    it('names every variable a function takes from cdk.json: env.json, not the template, decides what sam local runs', () => {
      // Prepare
      const functions =
        sharedJccApp(variant).statelessTemplate.findResources('AWS::Lambda::Function');

      // Act: what a function's environment sets other than the table's default.
      const missing = new Set<string>();
      for (const resource of Object.values(functions)) {
        const variables: Record<string, unknown> = resource.Properties.Environment?.Variables ?? {};
        for (const [name, value] of Object.entries(variables)) {
          const fromCdkJson = typeof value !== 'string' || value !== tableDefault(name);
          if (fromCdkJson && !(name in samParameters) && !(name in TEMPLATE_DECIDES)) {
            missing.add(name);
          }
        }
      }

      // Assess
      expect(Object.keys(functions).length).toBeGreaterThan(0);
      expect([...missing].sort()).toEqual([]);
    });
  },
);
