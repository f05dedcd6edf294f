import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { StatefulStack } from '../../../infra/stacks/stateful-stack';
import { TABLE_KEYS } from '../../../shared/adapters/dynamodb/table';

describe('StatefulStack', () => {
  // The table alone needs no bundling: a bare app is enough.
  const template = Template.fromStack(new StatefulStack(new App(), 'JccStateful'));

  it('holds exactly one table', () => {
    // Prepare / Act / Assess
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    expect(Object.keys(template.toJSON().Resources)).toHaveLength(1);
  });

  it('keys items by string pk and sk', () => {
    // Prepare / Act / Assess
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
      ],
    });
  });

  it('matches the keys and TTL attribute the DynamoDB adapter writes', () => {
    // Prepare / Act / Assess
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: TABLE_KEYS.partitionKey.name, KeyType: 'HASH' },
        { AttributeName: TABLE_KEYS.sortKey.name, KeyType: 'RANGE' },
      ],
      TimeToLiveSpecification: { AttributeName: TABLE_KEYS.timeToLiveAttribute, Enabled: true },
    });
  });

  it('bills on demand, keeps point-in-time recovery and expires items on expires_at', () => {
    // Prepare / Act / Assess
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
    });
  });

  it('names the table in a stable output, for registering nodes', () => {
    // Prepare / Act / Assess
    template.hasOutput('TableName', {
      Value: { Ref: Object.keys(template.toJSON().Resources)[0] },
    });
  });

  it('is retained when the stack is deleted or the table replaced', () => {
    // Prepare / Act / Assess
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
  });

  it('refuses a delete until deletion protection is turned off', () => {
    // Prepare / Act / Assess
    template.hasResourceProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: true });
  });
});
