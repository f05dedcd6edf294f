import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { CloudAssembly, type SynthesisMessage } from 'aws-cdk-lib/cx-api';
import { AwsSolutionsChecks } from 'cdk-nag';
import { inject } from 'vitest';
import { statefulStackName, statelessStackName } from '../../infra/stacks/jcc-app';
import type { SynthesizeOptions } from './synthesize-jcc-app';

/**
 * The apps the infra tests read, each synthesized ONCE per test run by the global setup
 * (`synthesize-once.global.ts`) instead of once per test file inside a timed hook: a bundling
 * synth takes tens of seconds on a loaded machine, more than any hook timeout should allow.
 */
export const sharedJccAppVariants = {
  /** As `cdk synth` with infra/app.ts: the functions really bundled, cdk-nag registered. */
  deployed: {
    bundle: true,
    prepare: (app) => Validations.of(app).addPlugins(new AwsSolutionsChecks(app)),
  },
  /** As `cdk deploy -c key=value` passes them: strings, overriding cdk.json. */
  settings: {
    bundle: false,
    context: {
      // The OpenAI path: one setting away from the default, its key in a secret.
      modelProvider: 'openai',
      openAiSecretName: 'prod/jcc/openai',
      openAiBaseUrl: 'https://llm.example.com/v1',
      llmModel: 'gpt-4.1',
      throttleRateLimit: '5',
      throttleBurstLimit: '8',
      logRetentionDays: '90',
      createApiGatewayCloudWatchRole: 'false',
      alarmEmail: 'ops@example.com',
      ttsProvider: 'openai',
      ttsBaseUrl: 'https://speech.example.com/v1',
      ttsApiKeySecretName: 'prod/jcc/tts',
      sttBaseUrl: 'https://api.groq.com/openai/v1',
      sttApiKeySecretName: 'prod/jcc/stt',
    },
  },
  /** Speech in through Amazon Transcribe (no secret, its IAM action), cdk-nag registered. */
  transcribe: {
    bundle: false,
    context: { sttProvider: 'transcribe', transcribeLanguage: 'de-DE' },
    prepare: (app) => Validations.of(app).addPlugins(new AwsSolutionsChecks(app)),
  },
  /** A slow model: a 120 s turn deadline, API Gateway waiting 180 s. */
  slowModel: {
    bundle: false,
    context: { turnDeadlineMs: 120_000, integrationTimeoutMs: 180_000 },
  },
} as const satisfies Record<string, SynthesizeOptions>;

export type SharedJccAppVariant = keyof typeof sharedJccAppVariants;

/** The variants cdk-nag reports on. */
export const naggedVariants: readonly SharedJccAppVariant[] = ['deployed', 'transcribe'];

/** What the global setup records next to each cloud assembly. */
export type SynthesisRecord =
  | {
      readonly ok: true;
      /** cdk-nag's report on the whole app, for the variants that register it. */
      readonly nag?: { readonly success: boolean; readonly violations: readonly string[] };
    }
  | { readonly ok: false; readonly error: string };

export const recordFile = (root: string, variant: SharedJccAppVariant): string =>
  join(root, `${variant}.json`);
export const assemblyDirectory = (root: string, variant: SharedJccAppVariant): string =>
  join(root, variant);

declare module 'vitest' {
  export interface ProvidedContext {
    /** The directory holding one cloud assembly per variant, written by the global setup. */
    jccAssemblyRoot: string;
  }
}

export interface SharedJccApp {
  readonly outdir: string;
  readonly assembly: CloudAssembly;
  readonly statefulTemplate: Template;
  readonly statelessTemplate: Template;
  readonly nag: Extract<SynthesisRecord, { ok: true }>['nag'];
  /** Warnings and errors the synth attached to a stack (what `cdk synth` prints). */
  readonly messages: (stackName: string) => readonly SynthesisMessage[];
  /** Every cdk-nag rule acknowledged in the app, with the reason given. */
  readonly acknowledgements: () => readonly [string, unknown][];
}

/** The cloud assembly of one variant; throws the synth's own error when it failed. */
export function sharedJccApp(
  variant: SharedJccAppVariant,
  root: string = inject('jccAssemblyRoot'),
): SharedJccApp {
  const record: SynthesisRecord = JSON.parse(readFileSync(recordFile(root, variant), 'utf8'));
  if (!record.ok) throw new Error(`synthesizing the ${variant} app failed: ${record.error}`);
  const outdir = assemblyDirectory(root, variant);
  const assembly = new CloudAssembly(outdir);
  const templateOf = (stackName: string) =>
    Template.fromJSON(assembly.getStackByName(stackName).template);
  return {
    outdir,
    assembly,
    statefulTemplate: templateOf(statefulStackName),
    statelessTemplate: templateOf(statelessStackName),
    nag: record.nag,
    messages: (stackName) => assembly.getStackByName(stackName).messages,
    acknowledgements: () =>
      assembly.stacks.flatMap((stack) =>
        stack
          .findMetadataByType(Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
          .flatMap((entry): [string, unknown][] =>
            Object.entries(entry.data as unknown as Record<string, unknown>),
          ),
      ),
  };
}
