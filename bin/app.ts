import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { IdvStack } from '../lib/stack';

const app = new App();
new IdvStack(app, 'IdvStack', {
  publicBaseUrl: app.node.tryGetContext('publicBaseUrl'),
  extractor: (['sandbox', 'offline'] as const).find((e) => e === app.node.tryGetContext('extractor')) ?? 'aws',
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
