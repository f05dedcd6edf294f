import { Validations } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { IConstruct } from 'constructs';

/** A cdk-nag finding we accept on purpose, and why. */
export interface NagAcknowledgement {
  readonly id: string;
  readonly reason: string;
}

const nodeKeyAuthentication =
  'Voice nodes authenticate with `X-API-Key: node_id:node_key`, checked in the Lambda against ' +
  'the SHA-256 stored in the node registry (constant-time compare). That header is the wire ' +
  'contract existing nodes speak; nodes are devices, not Cognito users, and a gateway ' +
  'authorizer would repeat the same table lookup in a second function on every request.';

/** Findings on the REST API and everything under it (methods, stage, logging role). */
export const apiAcknowledgements: readonly NagAcknowledgement[] = [
  { id: 'AwsSolutions-APIG4', reason: nodeKeyAuthentication },
  { id: 'AwsSolutions-COG4', reason: nodeKeyAuthentication },
  {
    id: 'AwsSolutions-APIG2',
    reason:
      'Each handler validates the body against the JSON Schema of the wire contract and answers ' +
      'with its error shape (400/413/415); a gateway validator would reject in a different shape.',
  },
  {
    id: 'AwsSolutions-APIG3',
    reason:
      'Home-scale API: stage throttling bounds abuse and every request is authenticated by node ' +
      'key; a WAF web ACL adds a fixed monthly cost. Attach one if the API is exposed more widely.',
  },
  {
    id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
    reason:
      'The account-level role API Gateway needs to write access and error logs; AWS maintains this ' +
      'policy for exactly that role. Created only when createApiGatewayCloudWatchRole is true.',
  },
];

/** Records every acknowledgement (with its reason) on the API so cdk-nag reports none of them. */
export function acknowledgeApiFindings(api: RestApi): void {
  Validations.of(api).acknowledge(...apiAcknowledgements);
}

/** Findings on the alarm topic. */
export const alarmTopicAcknowledgements: readonly NagAcknowledgement[] = [
  {
    id: 'AwsSolutions-SNS2',
    reason:
      'The topic carries alarm state changes only (names, thresholds, no request data or keys). ' +
      'CloudWatch cannot publish to a topic encrypted with the AWS managed SNS key, and a ' +
      'customer managed KMS key adds a fixed monthly cost; publishing requires TLS (SNS3).',
  },
];

/** Findings on each function's role. */
export const functionRoleAcknowledgements: readonly NagAcknowledgement[] = [
  {
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason:
      'Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no ' +
      'resource-level permissions, so AWS requires Resource "*" for them; so does ' +
      'polly:SynthesizeSpeech (Polly names lexicons only), granted to the functions that speak ' +
      'through Polly, and transcribe:StartStreamTranscription (no resource type), granted to the ' +
      'function that hears through Transcribe; every other statement of the role names its log ' +
      'group, the table or a secret.',
  },
  {
    id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:bedrock-mantle:<AWS::Region>:<AWS::AccountId>:project/*]',
    reason:
      'bedrock-mantle:CreateInference, the one action Bedrock documents for inference through its ' +
      'OpenAI-compatible endpoint, authorizes against a project; a Chat Completions call without ' +
      'a project header goes to the default project, whose ARN AWS does not publish. Scoped to ' +
      "the account and the stack's region, granted only to the functions that call the model.",
  },
];

/** Records the acknowledgements on one function's role (and its default policy). */
export function acknowledgeFunctionRoleFindings(role: IConstruct): void {
  Validations.of(role).acknowledge(...functionRoleAcknowledgements);
}
