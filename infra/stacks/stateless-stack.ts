import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { DeploySettings } from './deploy-settings';
import { assertLocalBundler } from './function-bundling';
import { functionEnvironment } from './function-environment';
import { acknowledgeApiFindings } from './nag-acknowledgements';
import { Observability } from './observability/observability';
import { turnTiming } from './turn-timing';
import { VoiceApi } from './voice-api';
import { type TableReference, tableActions, VoiceFunction } from './voice-function';
import { apiRoutes, voiceFunctions } from './voice-routes';

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
    // Looked up by name at deploy time: the key itself never enters the template.
    const openAiKeySecret = Secret.fromSecretNameV2(this, 'OpenAiKey', settings.openAiSecretName);
    const timing = turnTiming(settings);
    const deployed = new Map(
      voiceFunctions.map((apiFunction) => [
        apiFunction.id,
        new VoiceFunction(this, apiFunction.id, {
          apiFunction,
          environment: functionEnvironment({
            tableName: props.table.tableName,
            settings,
            callsModel: apiFunction.callsModel,
          }),
          table: props.table,
          // Only a function that calls the model may read its key.
          openAiKeySecret: apiFunction.callsModel ? openAiKeySecret : null,
          logRetention: settings.logRetentionDays,
          timeout: timing.functionTimeout,
        }),
      ]),
    );
    this.functions = [...deployed.values()];
    this.api = new VoiceApi(this, 'VoiceApi', {
      routes: apiRoutes.map((route) => ({
        method: route.method,
        path: route.path,
        handler: deployedFunction(deployed, route.function.id).function,
      })),
      integrationTimeout: timing.integrationTimeout,
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
        callsModel: route.function.callsModel,
        endsTurns: route.function.callsModel && route.changesConversation,
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

function deployedFunction(deployed: ReadonlyMap<string, VoiceFunction>, id: string): VoiceFunction {
  const found = deployed.get(id);
  if (found === undefined) throw new Error(`the route table names an unknown function ${id}`);
  return found;
}
