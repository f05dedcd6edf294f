import type { ServiceConfig } from '../../shared/adapters/config/service-config';
import {
  randomIds,
  systemClock,
  systemRandomness,
} from '../../shared/adapters/system/system-clock';
import type { SpeechToText, TextToSpeech } from '../../shared/ports/speech';
import type { FunctionNeeds } from '../http/contract/api-functions';
import type { ProxyHandler } from '../http/edge/dispatch-routes';
import { createServiceDependencies } from './create-service-dependencies';
import type { ProcessConfig } from './process-config';
import type { ServiceDependencies } from './service-dependencies';

/** Builds speech in from the settings and its resolved key (create-speech-to-text.ts). */
type CreateSpeechToText = (config: ServiceConfig, apiKey: string) => SpeechToText | null;

/** Builds speech out from the settings and its resolved key (create-text-to-speech.ts). */
type CreateTextToSpeech = (config: ServiceConfig, apiKey: string) => TextToSpeech | null;

/**
 * A speech adapter field of the wiring: required where the table entry says the function needs
 * it, refused where it says not (a type error), checked when wired where the type cannot tell.
 */
type SpeechAdapterField<
  Needed extends boolean,
  Name extends string,
  Adapter,
> = boolean extends Needed
  ? { readonly [K in Name]?: Adapter }
  : Needed extends true
    ? { readonly [K in Name]: Adapter }
    : { readonly [K in Name]?: never };

/**
 * The speech adapters a function's entry file passes, as its table entry says: `speechIn` for a
 * function that hears, `speechOut` for one that speaks. Passed by the entry, never imported here,
 * so only those bundles hold speech adapters, and one that only speaks holds no transcription
 * adapter (docs/decisions/2026-11-24-only-what-a-function-runs.md).
 */
type SpeechAdaptersOf<Needs extends FunctionNeeds> = SpeechAdapterField<
  Needs['hears'],
  'speechIn',
  CreateSpeechToText
> &
  SpeechAdapterField<Needs['speaks'], 'speechOut', CreateTextToSpeech>;

/**
 * One Lambda function as its entry file wires it: its entry in the function table (what it
 * needs), its routes given their dependencies, and the speech adapters it needs.
 */
export type FunctionWiring<Needs extends FunctionNeeds = FunctionNeeds> = {
  readonly function: Needs;
  readonly create: (dependencies: ServiceDependencies) => ProxyHandler;
} & SpeechAdaptersOf<Needs>;

/**
 * The real dependencies of a function (in a Lambda container or `npm start`), from what its table
 * entry needs and the process's configuration: a function that never calls the model neither
 * reads its key nor gets a model; the same holds for speech in (`hears`) and speech out
 * (`speaks`), built by the adapters its entry file passes.
 */
export async function functionDependencies(
  wiring: FunctionWiring,
  config: ProcessConfig,
): Promise<ServiceDependencies> {
  const needs = wiring.function;
  const createSpeechIn = adapterIfNeeded(needs.hears, wiring.speechIn, 'speech in');
  const createSpeechOut = adapterIfNeeded(needs.speaks, wiring.speechOut, 'speech out');
  const { settings } = config;
  const modelKey = needs.callsModel ? await config.key(settings.languageModel?.apiKey) : null;
  // Transcribe and Polly need no key: the role signs their requests.
  const speechInKey =
    settings.speechToText?.provider === 'openai' ? settings.speechToText.apiKey : undefined;
  const speechOutKey =
    settings.textToSpeech?.provider === 'openai' ? settings.textToSpeech.apiKey : undefined;
  return createServiceDependencies({
    config: settings,
    apiKey: modelKey,
    // Not even npm start's embedded model for a function that never calls one.
    ...(needs.callsModel ? {} : { model: null }),
    clock: systemClock,
    ids: randomIds,
    random: systemRandomness,
    speech: {
      speechToText:
        createSpeechIn === null ? null : createSpeechIn(settings, await config.key(speechInKey)),
      textToSpeech:
        createSpeechOut === null ? null : createSpeechOut(settings, await config.key(speechOutKey)),
    },
  });
}

/** The adapter a needed part is built with; null for a part the function does not need. */
function adapterIfNeeded<Adapter>(
  needed: boolean,
  adapter: Adapter | undefined,
  part: SpeechWiringMissingError['missing'],
): Adapter | null {
  if (!needed) return null;
  if (adapter === undefined) throw new SpeechWiringMissingError(part);
  return adapter;
}

/** A function was wired without a speech adapter its table entry says it uses: a wiring slip. */
export class SpeechWiringMissingError extends Error {
  override readonly name = 'SpeechWiringMissingError';
  constructor(readonly missing: 'speech in' | 'speech out') {
    super(`this function uses ${missing}, but its entry file passed no adapter for it`);
  }
}
