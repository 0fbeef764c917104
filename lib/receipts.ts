import { CfnOutput, RemovalPolicy } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

export interface DecisionReceiptsProps {
  /** The one function that signs receipts (FinishRun): it alone gets kms:Sign. */
  signer: IFunction;
}

/**
 * The asymmetric KMS key that signs decision receipts (ECC_NIST_P256, SIGN_VERIFY): the private half
 * never leaves KMS, the public half is fetched with `aws kms get-public-key` to check receipts offline
 * (scripts/verify-receipt.ts). Retained: receipts signed with it must stay checkable after a teardown.
 */
export class DecisionReceipts extends Construct {
  readonly key: Key;

  constructor(scope: Construct, id: string, props: DecisionReceiptsProps) {
    super(scope, id);
    this.key = new Key(this, 'SigningKey', {
      description: 'Signs verification decision receipts (ECDSA P-256)',
      keySpec: KeySpec.ECC_NIST_P256,
      keyUsage: KeyUsage.SIGN_VERIFY,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // Sign, and GetPublicKey to put the public key beside the signature; nothing else, and nobody else.
    this.key.grant(props.signer, 'kms:Sign', 'kms:GetPublicKey');
    if (props.signer instanceof LambdaFunction) props.signer.addEnvironment('RECEIPT_KEY_ID', this.key.keyArn);
    new CfnOutput(this, 'ReceiptKeyId', { value: this.key.keyArn, description: 'aws kms get-public-key --key-id <this> gives the key that checks decision receipts' });
  }
}
