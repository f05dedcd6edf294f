import type { App } from 'aws-cdk-lib';
import { readDeploySettings } from './deploy-settings';
import { StatefulStack } from './stateful-stack';
import { StatelessStack } from './stateless-stack';

/** Stable stack names: docs/deploy.md and the `sam local` commands use them. */
export const statefulStackName = 'JccStateful';
export const statelessStackName = 'JccStateless';

export interface JccStacks {
  readonly stateful: StatefulStack;
  readonly stateless: StatelessStack;
}

/** Adds both stacks to `app`, configured from its CDK context; shared by `infra/app.ts` and tests. */
export function addJccStacks(app: App): JccStacks {
  const settings = readDeploySettings((key) => app.node.tryGetContext(key));
  const stateful = new StatefulStack(app, statefulStackName, {
    description: 'Jarvis Command Center: the table (retained on delete)',
  });
  const stateless = new StatelessStack(app, statelessStackName, {
    description: 'Jarvis Command Center: functions, REST API, logs',
    table: stateful.table,
    settings,
  });
  return { stateful, stateless };
}
