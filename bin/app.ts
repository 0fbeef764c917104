import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { IdvStack } from '../lib/stack';
import { stageProps } from '../lib/stage-config';

// IDV_SKIP_BUNDLING=1: templates and checks without building the function assets (as test/cdk does); never for a deploy.
const app = new App(process.env.IDV_SKIP_BUNDLING === '1' ? { postCliContext: { 'aws:cdk:bundling-stacks': [] } } : {});
// `-c stage=<name>` picks the environment's settings from cdk.json (context.stages); default prod.
const { stackId, props } = stageProps((key) => app.node.tryGetContext(key));
new IdvStack(app, stackId, { ...props, env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION } });
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
