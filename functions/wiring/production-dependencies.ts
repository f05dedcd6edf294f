import type { ApiKeySource } from '../../shared/adapters/config/api-key-source';
import { resolveApiKey } from '../../shared/adapters/config/resolve-api-key';
import { readServiceConfig } from '../../shared/adapters/config/service-config';
import {
  randomIds,
  systemClock,
  systemRandomness,
} from '../../shared/adapters/system/system-clock';
import { createServiceDependencies } from './create-service-dependencies';
import type { ServiceDependencies } from './service-dependencies';
import { type SpeechWiring, SpeechWiringMissingError } from './speech-wiring';

/** A key read from its secret during the Lambda init. */
interface InitKey {
  readonly secretId: string;
  readonly key: string;
}

/**
 * In Lambda, the model's key is read from its secret during the init (top-level await), not on the
 * first request: a missing or unreadable secret then fails the init with one log line naming the
 * secret and the region (and the Lambda Errors alarm fires), instead of each request answering a
 * bare 500; so does an invalid setting. Only a function told where the key is reads it (the stack
 * leaves the secret name empty for the others). Elsewhere (tests, `npm start`) nothing happens here.
 */
async function readKeyDuringInit(
  env: Readonly<Record<string, string | undefined>>,
): Promise<InitKey | null> {
  if (!env.AWS_LAMBDA_FUNCTION_NAME) return null;
  let region: string;
  let source: ApiKeySource | undefined;
  try {
    const config = readServiceConfig(env);
    region = config.region;
    source = config.languageModel?.apiKey;
  } catch (error) {
    // An invalid setting fails the init with one line listing every problem (the Lambda Errors
    // alarm fires), instead of a 500 on every request.
    console.error(
      JSON.stringify({
        level: 'ERROR',
        message: `init failed: ${error instanceof Error ? error.message : String(error)}`,
      }),
    );
    throw error;
  }
  if (source?.kind !== 'secret') return null;
  try {
    return { secretId: source.secretId, key: await resolveApiKey(source, region) };
  } catch (error) {
    console.error(
      JSON.stringify({
        level: 'ERROR',
        message: `init failed: ${error instanceof Error ? error.message : String(error)}. Create the secret in ${region} (docs/deploy.md), or set openAiSecretName to its name in cdk.json and deploy again`,
        secret: source.secretId,
        region,
      }),
    );
    throw error;
  }
}

const initKey = await readKeyDuringInit(process.env);

/** What a function does (its route-table entry): which keys it needs, which adapters it gets. */
export interface FunctionUses {
  readonly callsModel: boolean;
  readonly hears?: boolean;
  readonly speaks?: boolean;
}

/**
 * The real dependencies of a Lambda container (or of `npm start`), read from the environment once.
 * A function that never calls the model neither fetches its key nor gets one; the same holds for
 * speech in (`hears`) and speech out (`speaks`), whose adapters come from `speechWiring`.
 */
export async function productionDependencies(
  options: FunctionUses = { callsModel: true },
  speechWiring: SpeechWiring | null = null,
): Promise<ServiceDependencies> {
  if ((options.hears || options.speaks) && speechWiring === null) {
    throw new SpeechWiringMissingError();
  }
  const config = readServiceConfig(process.env);
  const llm = options.callsModel ? config.languageModel : null;
  const source = llm?.apiKey;
  const apiKey =
    source === undefined
      ? null
      : source.kind === 'secret' && initKey?.secretId === source.secretId
        ? initKey.key
        : await resolveApiKey(source, config.region);
  const model = options.callsModel ? {} : { model: null };
  const uses = { hears: options.hears ?? false, speaks: options.speaks ?? false };
  // Transcribe needs no key: the role signs its stream.
  const stt = uses.hears && config.speechToText?.provider === 'openai' ? config.speechToText : null;
  const tts =
    uses.speaks && config.textToSpeech?.provider === 'openai' ? config.textToSpeech : null;
  const speechKeys = {
    speechToText: stt === null ? null : await resolveApiKey(stt.apiKey, config.region),
    textToSpeech: tts === null ? null : await resolveApiKey(tts.apiKey, config.region),
  };
  return createServiceDependencies({
    config,
    apiKey,
    clock: systemClock,
    ids: randomIds,
    random: systemRandomness,
    ...model,
    speech:
      speechWiring === null
        ? { speechToText: null, textToSpeech: null }
        : speechWiring(config, speechKeys, uses),
  });
}
