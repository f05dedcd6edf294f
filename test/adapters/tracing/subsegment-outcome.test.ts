import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  outcomeOfAwsError,
  outcomeOfStatus,
} from '../../../shared/adapters/tracing/subsegment-outcome';

const awsError = (name: string, httpStatusCode: number | undefined) =>
  Object.assign(new Error(name), { name, $metadata: { httpStatusCode } });

describe('outcomeOfStatus', () => {
  it.each([
    [400, { error: true }],
    [404, { error: true }],
    [429, { error: true, throttle: true }],
    [500, { fault: true }],
    [503, { fault: true }],
    [undefined, { fault: true }],
  ])('flags %s as %j', (status, expected) => {
    expect(outcomeOfStatus(status)).toEqual(expected);
  });
});

describe('outcomeOfAwsError', () => {
  it('flags a failed condition as an error, not a fault', () => {
    const error = new ConditionalCheckFailedException({
      message: 'The conditional request failed',
      $metadata: { httpStatusCode: 400 },
    });

    expect(outcomeOfAwsError(error)).toEqual({ error: true });
  });

  it.each([
    ['ProvisionedThroughputExceededException', 400],
    ['ThrottlingException', 400],
    ['RequestLimitExceeded', 400],
    ['SomethingElse', 429],
  ])('flags %s (%i) as a throttle', (name, status) => {
    expect(outcomeOfAwsError(awsError(name, status))).toEqual({ error: true, throttle: true });
  });

  it.each([
    ['InternalServerError', 500],
    ['TimeoutError', undefined],
  ])('flags %s (%s) as a fault', (name, status) => {
    expect(outcomeOfAwsError(awsError(name, status))).toEqual({ fault: true });
  });

  it('flags what is no error at all as a fault', () => {
    expect(outcomeOfAwsError('boom')).toEqual({ fault: true });
  });
});
