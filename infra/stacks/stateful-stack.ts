import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';

/** The attribute DynamoDB's TTL reads (epoch seconds); loads also filter on it. */
export const expiresAtAttribute = 'expires_at';

/**
 * What must outlive any redeploy: the one table holding node registrations and conversations.
 * Kept apart from the functions so the stateless stack can be destroyed and rebuilt freely.
 */
export class StatefulStack extends Stack {
  readonly table: Table;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      sortKey: { name: 'sk', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: expiresAtAttribute,
      // Node keys and conversations must survive a mistaken `cdk destroy`...
      removalPolicy: RemovalPolicy.RETAIN,
      // ...and a mistaken delete in the console or CLI (turn it off first to delete on purpose).
      deletionProtection: true,
    });
    // For `npm run node:add -- --aws --table <name>`: nodes are registered by hand.
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
  }
}
