import { Validations } from 'aws-cdk-lib';
import { CfnIdentityPool, CfnIdentityPoolRoleAttachment } from 'aws-cdk-lib/aws-cognito';
import { FederatedPrincipal, PolicyDocument, PolicyStatement, Role } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';

/**
 * The credentials AWS's Face Liveness component streams the person's video with
 * (rekognition:StartFaceLivenessSession), as AWS recommends them: a Cognito identity pool whose
 * unauthenticated role may do that one thing and nothing else. Three resources (the pool, the role
 * with its inline policy, the attachment), created only when Face Liveness is on.
 *
 * Chosen over credentials vended by the service itself (an STS role the challenge function would
 * assume per session): that needs no code in the request path, no STS client in a function and no
 * grant on a function's role, and what a stranger gets from the pool is as little: the role can
 * start a stream only into a session the service created (CreateFaceLivenessSession stays with the
 * widget's challenge function, behind a session token), never create one or read a result.
 * The pool allows only the enhanced flow (no classic flow: the role is the pool's, not the caller's).
 */
export class FaceLivenessIdentity extends Construct {
  /** `<region>:<uuid>`: what the widget asks Cognito for credentials with. */
  readonly identityPoolId: string;
  readonly unauthenticatedRole: Role;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const pool = new CfnIdentityPool(this, 'Pool', { allowUnauthenticatedIdentities: true, allowClassicFlow: false });
    this.identityPoolId = pool.ref;
    this.unauthenticatedRole = new Role(this, 'StreamRole', {
      description: "Face Liveness in the widget: stream the person's video into a session the service created, nothing else",
      assumedBy: new FederatedPrincipal(
        'cognito-identity.amazonaws.com',
        { StringEquals: { 'cognito-identity.amazonaws.com:aud': pool.ref }, 'ForAnyValue:StringLike': { 'cognito-identity.amazonaws.com:amr': 'unauthenticated' } },
        'sts:AssumeRoleWithWebIdentity',
      ),
      inlinePolicies: {
        StartFaceLivenessSession: new PolicyDocument({ statements: [new PolicyStatement({ actions: ['rekognition:StartFaceLivenessSession'], resources: ['*'] })] }),
      },
    });
    Validations.of(this.unauthenticatedRole).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'rekognition:StartFaceLivenessSession has no resource-level permissions; a stream goes only into a session id the service created.',
    });
    new CfnIdentityPoolRoleAttachment(this, 'Roles', { identityPoolId: pool.ref, roles: { unauthenticated: this.unauthenticatedRole.roleArn } });
    Validations.of(pool).acknowledge({
      id: 'AwsSolutions-COG7',
      reason:
        "Unauthenticated identities are how AWS's Face Liveness component gets credentials in a browser: the person has no account. Their role may only call rekognition:StartFaceLivenessSession.",
    });
  }
}
