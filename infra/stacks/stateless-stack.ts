import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { DeploySettings } from './deploy-settings';
import { assertLocalBundler } from './function-bundling';
import { functionEnvironment } from './function-environment';
import { acknowledgeApiFindings } from './nag-acknowledgements';
import { Observability } from './observability/observability';
import { routeSignals } from './observability/route-signals';
import { turnTiming } from './turn-timing';
import { VoiceApi } from './voice-api';
import { type TableReference, tableActions, VoiceFunction } from './voice-function';
import { type ApiFunction, apiRoutes, binaryMediaTypes, voiceFunctions } from './voice-routes';

export interface StatelessStackProps extends StackProps {
  readonly table: TableReference;
  readonly settings: DeploySettings;
}

/**
 * Everything that can be rebuilt at will: the functions, their logs, the REST API, and the
 * alarms and dashboard that watch them.
 */
export class StatelessStack extends Stack {
  readonly functions: readonly VoiceFunction[];
  readonly api: VoiceApi;
  readonly observability: Observability;

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    super(scope, id, props);
    assertLocalBundler();
    const { settings } = props;
    const keys = keySecrets(this, settings);
    const timing = turnTiming(settings);
    const deployed = new Map(
      voiceFunctions.map((apiFunction) => [
        apiFunction.id,
        new VoiceFunction(this, apiFunction.id, {
          apiFunction,
          environment: functionEnvironment({
            tableName: props.table.tableName,
            settings,
            needs: apiFunction,
          }),
          table: props.table,
          // Only a function that calls the model, hears or speaks may read the key it needs.
          secrets: keys.readBy(apiFunction),
          speaksWithPolly: apiFunction.speaks && settings.ttsProvider === 'polly',
          hearsWithTranscribe: apiFunction.hears && settings.sttProvider === 'transcribe',
          // Only a function that calls the model may call Bedrock's.
          bedrockRegion:
            apiFunction.callsModel && settings.modelProvider === 'bedrock'
              ? (settings.bedrockRegion ?? this.region)
              : null,
          logRetention: settings.logRetentionDays,
          timeout: apiFunction.streams ? timing.streamedFunctionTimeout : timing.functionTimeout,
        }),
      ]),
    );
    this.functions = [...deployed.values()];
    this.api = new VoiceApi(this, 'VoiceApi', {
      routes: apiRoutes.map((route) => ({
        method: route.method,
        path: route.path,
        handler: deployedFunction(deployed, route.function.id).function,
        streams: route.function.streams,
        integrationTimeout: route.function.streams
          ? timing.streamedIntegrationTimeout
          : timing.integrationTimeout,
      })),
      binaryMediaTypes,
      throttleRateLimit: settings.throttleRateLimit,
      throttleBurstLimit: settings.throttleBurstLimit,
      logRetention: settings.logRetentionDays,
      createCloudWatchRole: settings.createApiGatewayCloudWatchRole,
    });
    acknowledgeApiFindings(this.api.api);
    this.observability = new Observability(this, 'Observability', {
      stage: this.api.api.deploymentStage,
      routes: apiRoutes.map((route) => ({
        name: route.name,
        method: route.method,
        path: route.path,
        signals: routeSignals(route),
      })),
      functions: voiceFunctions.map((apiFunction) => {
        const deployedOne = deployedFunction(deployed, apiFunction.id);
        return {
          id: apiFunction.id,
          function: deployedOne.function,
          logGroup: deployedOne.logGroup,
          callsModel: apiFunction.callsModel,
        };
      }),
      tableName: props.table.tableName,
      tableOperations: tableActions.map((action) => action.replace('dynamodb:', '')),
      turnDeadlineMs: timing.turnDeadlineMs,
      alarmEmail: settings.alarmEmail,
    });
    new CfnOutput(this, 'ApiUrl', {
      value: this.api.api.url,
      description: 'Base URL of the stage; routes start with api/v0/',
    });
  }
}

/**
 * The key secrets, looked up by name at deploy time (the keys themselves never enter the
 * template), and which of them a function may read.
 */
function keySecrets(scope: Construct, settings: DeploySettings) {
  const imported = new Map<string, ISecret>();
  const secret = (id: string, name: string | null): ISecret | null => {
    if (name === null) return null;
    const known = imported.get(name);
    if (known !== undefined) return known;
    const found = Secret.fromSecretNameV2(scope, id, name);
    imported.set(name, found);
    return found;
  };
  // Bedrock's model has no key: its secret is not even looked up.
  const model =
    settings.modelProvider === 'openai' ? secret('OpenAiKey', settings.openAiSecretName) : null;
  const speechIn =
    settings.sttBaseUrl === null ? null : secret('SttKey', settings.sttApiKeySecretName);
  const speechOut =
    settings.ttsProvider === 'openai' ? secret('TtsKey', settings.ttsApiKeySecretName) : null;
  return {
    readBy: (fn: ApiFunction): ISecret[] => [
      ...new Set(
        [
          fn.callsModel ? model : null,
          fn.hears ? speechIn : null,
          fn.speaks ? speechOut : null,
        ].filter((found): found is ISecret => found !== null),
      ),
    ],
  };
}

function deployedFunction(deployed: ReadonlyMap<string, VoiceFunction>, id: string): VoiceFunction {
  const found = deployed.get(id);
  if (found === undefined) throw new Error(`the route table names an unknown function ${id}`);
  return found;
}
