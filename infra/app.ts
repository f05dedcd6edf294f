// The CDK app (`cdk.json` runs it with tsx): both stacks, checked by cdk-nag at every synth.
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { addJccStacks } from './stacks/jcc-app';

const app = new App();
addJccStacks(app);
// An unacknowledged AwsSolutions error fails the synth (and so the deploy).
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
app.synth();
