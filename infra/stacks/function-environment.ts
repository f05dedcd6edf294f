import {
  type HandlerSettingName,
  handlerSettingNames,
  handlerSettings,
} from '../../shared/adapters/config/settings-table';
import type { DeploySettings } from './deploy-settings';
import type { SpeechDeploySettings } from './speech-deploy-settings';
import type { FunctionNeeds } from './voice-routes';

type Settings = typeof handlerSettings;

/** A handler setting a function's environment may hold (Lambda sets the region itself). */
type DeclaredSettingName = {
  [K in HandlerSettingName]: Settings[K] extends { readonly reservedByLambda: true } ? never : K;
}[HandlerSettingName];

const declaredSettingNames = handlerSettingNames.filter(
  (name): name is DeclaredSettingName => !('reservedByLambda' in handlerSettings[name]),
);

/**
 * Every variable of the settings table, and Node's flags. All are declared on every function,
 * even when empty in AWS, because `sam local --env-vars` can only override variables the
 * template declares.
 */
export const functionEnvironmentNames = [...declaredSettingNames, 'NODE_OPTIONS'] as const;

export type FunctionEnvironmentName = DeclaredSettingName | 'NODE_OPTIONS';

/** Powertools names: the dashboard and alarms read the metrics the handlers emit under them. */
export const powertoolsServiceName = handlerSettings.POWERTOOLS_SERVICE_NAME.default;
export const metricsNamespace = handlerSettings.POWERTOOLS_METRICS_NAMESPACE.default;

/** What the environment depends on beyond the fixed defaults. */
export interface FunctionEnvironmentInputs {
  /** The table's name (a CloudFormation token in the stack). */
  readonly tableName: string;
  readonly settings: Pick<
    DeploySettings,
    | 'modelProvider'
    | 'bedrockModel'
    | 'bedrockRegion'
    | 'openAiSecretName'
    | 'openAiBaseUrl'
    | 'llmModel'
    | 'nodeRateLimit'
    | 'nodeRateWindowSeconds'
    | 'turnDeadlineMs'
    | keyof SpeechDeploySettings
  >;
  /**
   * What the function needs (its entry in the function table). One that never calls the model is
   * not told where the model or its key is (the variables stay declared, empty), and its role
   * cannot read the secret; only one that hears is told the speech-in server and its key's
   * secret; only one that speaks, the speech-out provider, voice and key's secret.
   */
  readonly needs: FunctionNeeds;
}

/**
 * The environment of every function in AWS: what the stack sets, every other setting at its
 * table default. With Bedrock no key exists: the function's role signs its model calls. The
 * OpenAI key is never here either: only the name of the secret holding it, which a
 * function that calls the model reads once per container; so for the speech keys, told only to
 * the functions that hear or speak. A setting without a default (the
 * local-only `DYNAMODB_ENDPOINT`, `OPENAI_API_KEY`) or with a derived one (`WARMUP_TIMEOUT_MS`)
 * is empty, so the handler's own default applies.
 */
export function functionEnvironment(
  inputs: FunctionEnvironmentInputs,
): Record<FunctionEnvironmentName, string> {
  const { needs } = inputs;
  const model = (value: string): string => (needs.callsModel ? value : '');
  const bedrock = inputs.settings.modelProvider === 'bedrock';
  const openAi = (value: string): string => (bedrock ? '' : model(value));
  const speechIn = (value: string | null): string => (needs.hears ? (value ?? '') : '');
  const speechOut = (value: string | null): string => (needs.speaks ? (value ?? '') : '');
  const { settings } = inputs;
  const defaults = Object.fromEntries(
    declaredSettingNames.map((name) => [name, defaultText(name)]),
  ) as Record<DeclaredSettingName, string>;
  return {
    ...defaults,
    TABLE_NAME: inputs.tableName,
    // Bedrock: no URL and no secret, the role signs; BEDROCK_REGION empty is the function's own.
    MODEL_PROVIDER: model(inputs.settings.modelProvider),
    BEDROCK_REGION: bedrock ? model(inputs.settings.bedrockRegion ?? '') : '',
    LLM_MODEL: model(bedrock ? inputs.settings.bedrockModel : inputs.settings.llmModel),
    OPENAI_BASE_URL: openAi(inputs.settings.openAiBaseUrl),
    OPENAI_API_KEY_SECRET: openAi(inputs.settings.openAiSecretName),
    TURN_DEADLINE_MS: String(inputs.settings.turnDeadlineMs),
    NODE_RATE_LIMIT: String(inputs.settings.nodeRateLimit),
    NODE_RATE_WINDOW_SECONDS: String(inputs.settings.nodeRateWindowSeconds),
    // Transcribe: no URL and no secret, the role signs; its region is the function's own.
    STT_PROVIDER: speechIn(settings.sttProvider),
    TRANSCRIBE_LANGUAGE: speechIn(settings.transcribeLanguage),
    STT_BASE_URL: speechIn(settings.sttBaseUrl),
    STT_MODEL: speechIn(settings.sttModel),
    STT_API_KEY_SECRET: speechIn(settings.sttApiKeySecretName),
    // Polly unless told otherwise (deploy-settings.ts); `none` turns speech out off.
    TTS_PROVIDER: speechOut(settings.ttsProvider),
    TTS_VOICE: speechOut(settings.ttsVoice),
    POLLY_ENGINE: speechOut(settings.pollyEngine),
    TTS_BASE_URL: speechOut(settings.ttsBaseUrl),
    TTS_MODEL: speechOut(settings.ttsModel),
    TTS_API_KEY_SECRET: speechOut(settings.ttsApiKeySecretName),
    // Declared for `sam local` and for a debugging session, empty in AWS: not
    // `--enable-source-maps`, whose parsed map would weigh on every garbage collection; the
    // stack of a 500 is mapped when it is logged (functions/http/errors/mapped-stack.ts).
    NODE_OPTIONS: '',
  };
}

/** A setting's default as an environment value; empty when it has none or derives it. */
function defaultText(name: DeclaredSettingName): string {
  const setting: { readonly default: unknown; readonly derived?: true } = handlerSettings[name];
  return setting.default === null || setting.derived ? '' : String(setting.default);
}
