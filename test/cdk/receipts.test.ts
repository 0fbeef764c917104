import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { DecisionReceipts } from '../../lib/receipts';

describe('decision receipts key', () => {
  const stack = new Stack(new App(), 'ReceiptsStack');
  const signer = new LambdaFunction(stack, 'Signer', { runtime: Runtime.NODEJS_22_X, handler: 'index.handler', code: Code.fromInline('exports.handler=async()=>{}') });
  const other = new LambdaFunction(stack, 'Other', { runtime: Runtime.NODEJS_22_X, handler: 'index.handler', code: Code.fromInline('exports.handler=async()=>{}') });
  new DecisionReceipts(stack, 'Receipts', { signer });
  const template = Template.fromStack(stack);

  it('is an ECC_NIST_P256 SIGN_VERIFY key, retained', () => {
    template.hasResource('AWS::KMS::Key', { Properties: Match.objectLike({ KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY' }), DeletionPolicy: 'Retain' });
  });

  it('grants kms:Sign to the signing function only, and tells it the key', () => {
    const policies = template.findResources('AWS::IAM::Policy');
    const signing = Object.values(policies).filter((p) => JSON.stringify(p).includes('kms:Sign'));
    expect(signing).toHaveLength(1);
    expect(JSON.stringify(signing[0]?.Properties.Roles)).toContain(stack.getLogicalId(signer.role!.node.defaultChild as never));
    expect(JSON.stringify(signing[0]?.Properties.Roles)).not.toContain(stack.getLogicalId(other.role!.node.defaultChild as never));
    template.hasResourceProperties('AWS::Lambda::Function', { Environment: { Variables: { RECEIPT_KEY_ID: Match.anyValue() } } });
  });
});
