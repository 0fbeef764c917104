import { RemovalPolicy } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

export interface DocumentFingerprintKeyProps {
  /** The one function that fingerprints documents (EvaluateDocument): it alone gets kms:GenerateMac. */
  fingerprinter: IFunction;
}

/**
 * The KMS HMAC key (HMAC_256, GENERATE_VERIFY_MAC) of the duplicate-document index: the key never
 * leaves KMS and no function reads it, so a copy of the table cannot be matched against guessed
 * document numbers without calling KMS as EvaluateDocument. Retained: the fingerprints already
 * stored are only comparable with the key that made them (a new key starts a new index).
 */
export class DocumentFingerprintKey extends Construct {
  readonly key: Key;

  constructor(scope: Construct, id: string, props: DocumentFingerprintKeyProps) {
    super(scope, id);
    this.key = new Key(this, 'HmacKey', {
      description: 'Keys the duplicate-document fingerprints (HMAC-SHA256)',
      keySpec: KeySpec.HMAC_256,
      keyUsage: KeyUsage.GENERATE_VERIFY_MAC,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.key.grant(props.fingerprinter, 'kms:GenerateMac');
    if (props.fingerprinter instanceof LambdaFunction) props.fingerprinter.addEnvironment('FINGERPRINT_KEY_ID', this.key.keyArn);
  }
}
