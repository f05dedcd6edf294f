import { Duration } from 'aws-cdk-lib';
import { type IMetric, MathExpression } from 'aws-cdk-lib/aws-cloudwatch';
import { type AlarmSpec, atLeast, type ObservedRoute, routesWhere } from './alarm-spec';
import {
  defaultPeriod,
  JccMetric,
  ModelFailureMetric,
  SpeechFailureMetric,
  SpeechMetric,
  statusMetricName,
  sumOverRoutes,
  warmUpMetricName,
} from './jcc-metrics';

/** Share of turns that ended by asking the user, counted only past `minimum` such turns. */
function validationRequiredShare(routes: readonly string[], minimum: number): IMetric {
  const period = Duration.minutes(15);
  return new MathExpression({
    expression: `IF(asked >= ${minimum}, 100 * asked / turns, 0)`,
    usingMetrics: {
      asked: sumOverRoutes(JccMetric.stopValidationRequired, routes, { idPrefix: 'v' }),
      // One model_calls sample per turn that ran: its sample count is the number of turns.
      turns: sumOverRoutes(JccMetric.modelCalls, routes, {
        idPrefix: 't',
        statistic: 'SampleCount',
      }),
    },
    period,
    label: '% of turns ending in validation_required',
  });
}

/** The model's alarms, each on the routes that really emit what it reads (route-signals.ts). */
export function modelAlarms(routes: readonly ObservedRoute[]): AlarmSpec[] {
  // The model's routes only: a speech route's 502 is its provider's (speech_provider_failed),
  // watched by SpeechProviderErrors.
  const answering = (status: number) =>
    routesWhere(
      routes,
      (signals) => (signals.turns || signals.chats) && signals.statuses.includes(status),
    );
  const alarms: AlarmSpec[] = [];
  const failing = answering(502);
  if (failing.length > 0) {
    alarms.push({
      id: 'ModelFailures',
      description:
        'At least 3 answers of 502 llm_failed in 5 minutes: the model endpoint failed after the ' +
        'SDK retries (outage, rate limit, revoked key, unknown model name). See the ' +
        '"request failed" WARN lines (status 502) of the voice functions.',
      metric: sumOverRoutes(statusMetricName(502), failing, { idPrefix: 'm', label: '502s' }),
      ...atLeast(3),
    });
  }
  const timing = answering(504);
  if (timing.length > 0) {
    alarms.push({
      id: 'TurnTimeouts',
      description:
        'At least 3 answers of 504 turn_timeout in 5 minutes: turns ran out of their deadline, ' +
        'usually a slow model or many retries. Compare model calls per turn on the dashboard.',
      metric: sumOverRoutes(statusMetricName(504), timing, { idPrefix: 'm', label: '504s' }),
      ...atLeast(3),
    });
  }
  alarms.push(...modelProviderAlarms(routes));
  const turning = routesWhere(routes, (signals) => signals.turns);
  if (turning.length > 0) {
    alarms.push({
      id: 'ValidationRequiredSpike',
      description:
        'At least 5 turns and 25% of turns in 15 minutes ended in validation_required: the ' +
        'model stopped producing arguments of the declared types even after the retries (a new ' +
        'model version, a changed prompt or command set). Users are being asked instead of served.',
      metric: validationRequiredShare(turning, 5),
      ...atLeast(25),
    });
  }
  const warming = routesWhere(routes, (signals) => signals.warmsUp);
  if (warming.length > 0) {
    alarms.push({
      id: 'ModelWarmUpFailures',
      description:
        'At least 2 model warm-ups of conversation/start in 5 minutes failed or timed out: the ' +
        'model endpoint is down or far too slow before anyone has spoken, and the next turns ' +
        'will fail (502) or run out of time (504). See the "model warm-up did not finish" WARN lines.',
      metric: new MathExpression({
        expression: 'failed + timedOut',
        usingMetrics: {
          failed: sumOverRoutes(warmUpMetricName('failed'), warming, { idPrefix: 'f' }),
          timedOut: sumOverRoutes(warmUpMetricName('timed_out'), warming, { idPrefix: 't' }),
        },
        period: defaultPeriod,
        label: 'warm-ups failed or timed out',
      }),
      ...atLeast(2),
    });
  }
  return alarms;
}

/**
 * The model's provider refusing the service itself, or throttling it: each has its own fix, so
 * its own alarm, on one answer of it (a refusal is never transient; three throttles are).
 */
function modelProviderAlarms(routes: readonly ObservedRoute[]): AlarmSpec[] {
  const failing = routesWhere(routes, (signals) => signals.modelFailures);
  if (failing.length === 0) return [];
  const sum = (metricName: string, idPrefix: string, label: string) =>
    sumOverRoutes(metricName, failing, { idPrefix, label });
  return [
    {
      id: 'ModelCredentialsRejected',
      description:
        'A turn answered 502 llm_credentials_rejected: the model provider (Bedrock) refused the ' +
        "credentials the request was signed with (expired or invalid). Check the function's role " +
        'and the "request failed" WARN line, which ends with what to fix.',
      metric: sum(ModelFailureMetric.credentialsRejected, 'c', 'credentials rejected'),
      ...atLeast(1),
    },
    {
      id: 'ModelAccessDenied',
      description:
        'A turn answered 502 llm_permission_denied or llm_model_access_denied: the role may not ' +
        'call the model (IAM action bedrock-mantle:CreateInference, or an SCP), or the account ' +
        'has no access to the model in its region (Bedrock console, Model access). Every turn ' +
        'fails until fixed; the "request failed" WARN line says which.',
      metric: new MathExpression({
        expression: 'permission + access',
        usingMetrics: {
          permission: sum(ModelFailureMetric.permissionDenied, 'p', 'permission denied'),
          access: sum(ModelFailureMetric.modelAccessDenied, 'a', 'model access denied'),
        },
        period: defaultPeriod,
        label: 'model calls refused',
      }),
      ...atLeast(1),
    },
    {
      id: 'ModelThrottled',
      description:
        'At least 3 answers of 502 llm_throttled in 5 minutes: the model provider throttled ' +
        'every attempt of those turns (Bedrock: the tokens or requests per minute of the model ' +
        'in the account). Ask for a quota increase, or choose another model or region.',
      metric: sum(ModelFailureMetric.throttled, 't', 'throttled'),
      ...atLeast(3),
    },
  ];
}

/** Speech providers failing: the node cannot hear answers, or be heard. */
export function speechAlarms(routes: readonly ObservedRoute[]): AlarmSpec[] {
  const speaking = routesWhere(routes, (signals) => signals.hears || signals.speaks);
  if (speaking.length === 0) return [];
  return [
    {
      id: 'SpeechProviderErrors',
      description:
        'At least 3 speech provider calls failed in 5 minutes (transcription or synthesis: an ' +
        'outage, a revoked key, a Polly voice the engine lacks, a throttle). Nodes get 502 on the ' +
        'media routes and the JSON answer instead of audio on the stream routes. See the speech ' +
        'functions’ "request failed" WARN lines and the provider’s status.',
      metric: sumOverRoutes(SpeechMetric.providerErrors, speaking, {
        idPrefix: 's',
        label: 'speech provider errors',
      }),
      ...atLeast(3),
    },
    ...speechRefusalAlarms(routes),
  ];
}

/**
 * Amazon Transcribe refusing the service itself (the credentials or the IAM action: every
 * recording fails until fixed, so one is enough) or a new stream past its quota.
 */
function speechRefusalAlarms(routes: readonly ObservedRoute[]): AlarmSpec[] {
  const refused = routesWhere(routes, (signals) => signals.speechRefusals);
  if (refused.length === 0) return [];
  const sum = (metricName: string, idPrefix: string, label: string) =>
    sumOverRoutes(metricName, refused, { idPrefix, label });
  return [
    {
      id: 'SpeechInRefused',
      description:
        'A recording answered 502 speech_credentials_rejected or speech_permission_denied: Amazon ' +
        "Transcribe refused the function's credentials, or its role may not call " +
        'transcribe:StartStreamTranscription. Nodes cannot be heard until fixed; the "request ' +
        'failed" WARN line of the speech function ends with what to fix.',
      metric: new MathExpression({
        expression: 'credentials + permission',
        usingMetrics: {
          credentials: sum(SpeechFailureMetric.credentialsRejected, 'c', 'credentials rejected'),
          permission: sum(SpeechFailureMetric.permissionDenied, 'p', 'permission denied'),
        },
        period: defaultPeriod,
        label: 'Transcribe refused the service',
      }),
      ...atLeast(1),
    },
    {
      id: 'SpeechInThrottled',
      description:
        'At least 3 recordings answered 502 speech_throttled in 5 minutes: Amazon Transcribe ' +
        'refused new streams past the account quota (concurrent HTTP/2 streams, or ' +
        'StartStreamTranscription calls a second; 5 each by default). Request more in Service Quotas.',
      metric: sum(SpeechFailureMetric.throttled, 't', 'throttled'),
      ...atLeast(3),
    },
  ];
}
