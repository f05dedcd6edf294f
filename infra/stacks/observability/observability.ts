import { CfnOutput, Validations } from 'aws-cdk-lib';
import { Alarm, type Dashboard, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { alarmTopicAcknowledgements } from '../nag-acknowledgements';
import { alarmComparison, assertAlarmsFit, operationsAlarms } from './operations-alarms';
import { type DashboardInputs, operationsDashboard } from './operations-dashboard';

/** What the dashboard shows (the alarms are made here), and where the alarms go. */
export interface ObservabilityProps extends Omit<DashboardInputs, 'alarms'> {
  /** Subscribed to the alarm topic by e-mail when set (context `alarmEmail`). */
  readonly alarmEmail: string | null;
}

/** The alarms, the topic they notify (in alarm and back to OK), and the one dashboard. */
export class Observability extends Construct {
  readonly topic: Topic;
  readonly alarms: readonly Alarm[];
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    this.topic = new Topic(this, 'AlarmTopic', {
      displayName: 'Jarvis Command Center alarms',
      enforceSSL: true,
    });
    Validations.of(this.topic).acknowledge(...alarmTopicAcknowledgements);
    if (props.alarmEmail !== null) {
      this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    }
    const specs = operationsAlarms({
      stage: props.stage,
      functions: props.functions,
      modelRoutes: props.routes.filter((route) => route.callsModel).map((route) => route.name),
      turnRoutes: props.routes.filter((route) => route.endsTurns).map((route) => route.name),
      tableName: props.tableName,
      tableOperations: props.tableOperations,
      turnDeadlineMs: props.turnDeadlineMs,
    });
    assertAlarmsFit(specs);
    const action = new SnsAction(this.topic);
    this.alarms = specs.map((spec) => {
      const alarm = new Alarm(this, spec.id, {
        alarmName: `jcc-${spec.id}`,
        alarmDescription: spec.description,
        metric: spec.metric,
        threshold: spec.threshold,
        evaluationPeriods: spec.evaluationPeriods,
        datapointsToAlarm: spec.datapointsToAlarm,
        comparisonOperator: alarmComparison,
        // No traffic is not a failure: a quiet night must not page anyone.
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
      return alarm;
    });
    this.dashboard = operationsDashboard(this, 'Dashboard', { ...props, alarms: this.alarms });
    // Stable output names, as `ApiUrl`: docs/deploy.md reads them with describe-stacks.
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.topic.topicArn,
      description: 'SNS topic every alarm notifies; subscribe e-mail, chat or paging to it',
    }).overrideLogicalId('AlarmTopicArn');
    new CfnOutput(this, 'DashboardName', {
      value: this.dashboard.dashboardName,
      description: 'The CloudWatch dashboard of the service',
    }).overrideLogicalId('DashboardName');
  }
}
