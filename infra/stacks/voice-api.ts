import { type Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  ResponseTransferMode,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { addGatewayResponses } from './gateway-responses';

export const stageName = 'prod';

/**
 * One JSON object per request. Latencies and the integration status tell a slow model from a
 * failing function; no header is logged, so the node keys never reach the logs.
 */
export const accessLogFields: Readonly<Record<string, string>> = {
  requestId: AccessLogField.contextRequestId(),
  extendedRequestId: AccessLogField.contextExtendedRequestId(),
  requestTime: AccessLogField.contextRequestTime(),
  httpMethod: AccessLogField.contextHttpMethod(),
  resourcePath: AccessLogField.contextResourcePath(),
  status: AccessLogField.contextStatus(),
  protocol: AccessLogField.contextProtocol(),
  responseLength: AccessLogField.contextResponseLength(),
  responseLatency: AccessLogField.contextResponseLatency(),
  integrationLatency: AccessLogField.contextIntegrationLatency(),
  integrationStatus: AccessLogField.contextIntegrationStatus(),
  integrationError: AccessLogField.contextIntegrationErrorMessage(),
  errorMessage: AccessLogField.contextErrorMessage(),
  sourceIp: AccessLogField.contextIdentitySourceIp(),
  userAgent: AccessLogField.contextIdentityUserAgent(),
};

export interface VoiceApiRoute {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly handler: IFunction;
  /**
   * The function answers through Lambda response streaming: API Gateway invokes it with
   * InvokeWithResponseStream and passes its bytes on as they come (`STREAM` transfer mode).
   */
  readonly streams: boolean;
  /** How long API Gateway waits for the function (turn-timing.ts). */
  readonly integrationTimeout: Duration;
}

export interface VoiceApiProps {
  readonly routes: readonly VoiceApiRoute[];
  /**
   * Bodies API Gateway hands to the function base64-encoded, byte for byte (the route table's
   * uploads and audio, as `npm start` treats them): every other type, JSON, arrives as text.
   */
  readonly binaryMediaTypes: readonly string[];
  readonly throttleRateLimit: number;
  readonly throttleBurstLimit: number;
  readonly logRetention: RetentionDays;
  readonly createCloudWatchRole: boolean;
}

/**
 * The regional REST API: one method per route of the table (streamed for the functions that
 * stream), a throttled stage, JSON access logs.
 */
export class VoiceApi extends Construct {
  readonly api: RestApi;
  readonly accessLogs: LogGroup;

  constructor(scope: Construct, id: string, props: VoiceApiProps) {
    super(scope, id);
    this.accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.api = new RestApi(this, 'Api', {
      restApiName: 'jcc-voice',
      description: 'Jarvis Command Center tool API for voice nodes',
      endpointConfiguration: { types: [EndpointType.REGIONAL] },
      binaryMediaTypes: [...props.binaryMediaTypes],
      cloudWatchRole: props.createCloudWatchRole,
      // The account-wide logging role may serve other APIs: keep it when this stack goes.
      ...(props.createCloudWatchRole ? { cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN } : {}),
      deployOptions: {
        stageName,
        throttlingRateLimit: props.throttleRateLimit,
        throttlingBurstLimit: props.throttleBurstLimit,
        accessLogDestination: new LogGroupLogDestination(this.accessLogs),
        accessLogFormat: AccessLogFormat.custom(JSON.stringify(accessLogFields)),
        // Errors only, and never request data: bodies and headers carry node keys.
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        // The stage's own X-Ray segment, parent of the functions' segments.
        tracingEnabled: true,
      },
    });
    // One URL output, the stack's stable `ApiUrl`: the construct's own `Endpoint` output is the
    // same URL under a generated name.
    this.api.node.tryRemoveChild('Endpoint');
    // Unknown paths, the stage throttle, API Gateway's own failures: in our error shape too.
    addGatewayResponses(this.api);
    for (const route of props.routes) {
      this.api.root.resourceForPath(route.path).addMethod(
        route.method,
        // No test-invoke permission: the console's test button is not worth a broader grant.
        new LambdaIntegration(route.handler, {
          proxy: true,
          allowTestInvoke: false,
          timeout: route.integrationTimeout,
          responseTransferMode: route.streams
            ? ResponseTransferMode.STREAM
            : ResponseTransferMode.BUFFERED,
        }),
      );
    }
  }
}
