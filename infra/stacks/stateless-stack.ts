import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { DeploySettings } from './deploy-settings';
import { assertLocalBundler } from './function-bundling';
import { functionEnvironment } from './function-environment';
import { acknowledgeApiFindings } from './nag-acknowledgements';
import { VoiceApi } from './voice-api';
import { type TableReference, VoiceFunction } from './voice-function';
import { voiceRoutes } from './voice-routes';

export interface StatelessStackProps extends StackProps {
  readonly table: TableReference;
  readonly settings: DeploySettings;
}

/** Everything that can be rebuilt at will: the three functions, their logs, and the REST API. */
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
    const routed = voiceRoutes.map((route) => ({
      route,
      voiceFunction: new VoiceFunction(this, route.id, {
        route,
        environment,
        table: props.table,
        openAiKeySecret,
        logRetention: settings.logRetentionDays,
      }),
    }));
    this.functions = routed.map(({ voiceFunction }) => voiceFunction);
    this.api = new VoiceApi(this, 'VoiceApi', {
      routes: routed.map(({ route, voiceFunction }) => ({
        path: route.path,
        handler: voiceFunction.function,
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
