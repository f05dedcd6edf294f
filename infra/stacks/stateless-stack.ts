import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { DeploySettings } from './deploy-settings';
import { assertLocalBundler } from './function-bundling';
import { functionEnvironment } from './function-environment';
import { acknowledgeApiFindings } from './nag-acknowledgements';
import { VoiceApi } from './voice-api';
import { type TableReference, VoiceFunction } from './voice-function';
import { apiRoutes, voiceFunctions } from './voice-routes';

export interface StatelessStackProps extends StackProps {
  readonly table: TableReference;
  readonly settings: DeploySettings;
}

/** Everything that can be rebuilt at will: the functions, their logs, and the REST API. */
export class StatelessStack extends Stack {
  readonly functions: readonly VoiceFunction[];
  readonly api: VoiceApi;

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    super(scope, id, props);
    assertLocalBundler();
    const { settings } = props;
    // Looked up by name at deploy time: the key itself never enters the template.
    const openAiKeySecret = Secret.fromSecretNameV2(this, 'OpenAiKey', settings.openAiSecretName);
    const environment = functionEnvironment({ tableName: props.table.tableName, settings });
    const deployed = new Map(
      voiceFunctions.map((apiFunction) => [
        apiFunction.id,
        new VoiceFunction(this, apiFunction.id, {
          apiFunction,
          environment,
          table: props.table,
          openAiKeySecret,
          logRetention: settings.logRetentionDays,
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
      throttleRateLimit: settings.throttleRateLimit,
      throttleBurstLimit: settings.throttleBurstLimit,
      logRetention: settings.logRetentionDays,
      createCloudWatchRole: settings.createApiGatewayCloudWatchRole,
    });
    acknowledgeApiFindings(this.api.api);
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
