import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { StatefulStack } from '../../../infra/stacks/stateful-stack';
import { TABLE_KEYS } from '../../../shared/adapters/dynamodb/table';

describe('StatefulStack', () => {
  // The table alone needs no bundling: a bare app is enough.
  const template = Template.fromStack(new StatefulStack(new App(), 'JccStateful'));

  it('holds exactly one table', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    expect(Object.keys(template.toJSON().Resources)).toHaveLength(1);
  });

  it('keys items by string pk and sk, and expires them on the attribute the DynamoDB adapter writes', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: TABLE_KEYS.partitionKey.name, KeyType: 'HASH' },
        { AttributeName: TABLE_KEYS.sortKey.name, KeyType: 'RANGE' },
      ],
      AttributeDefinitions: [
        { AttributeName: TABLE_KEYS.partitionKey.name, AttributeType: 'S' },
        { AttributeName: TABLE_KEYS.sortKey.name, AttributeType: 'S' },
      ],
      TimeToLiveSpecification: { AttributeName: TABLE_KEYS.timeToLiveAttribute, Enabled: true },
    });
    expect([TABLE_KEYS.partitionKey.name, TABLE_KEYS.sortKey.name]).toEqual(['pk', 'sk']);
  });

  it('bills on demand and keeps point-in-time recovery', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
  });

  it('names the table in a stable output, for registering nodes', () => {
    template.hasOutput('TableName', {
      Value: { Ref: Object.keys(template.toJSON().Resources)[0] },
    });
  });

  it('is retained when the stack is deleted or the table replaced', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
  });

  it('refuses a delete until deletion protection is turned off', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: true });
  });
});
