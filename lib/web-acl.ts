import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';

/** Requests per 5 minutes (WAF's evaluation window) above which a rate-based rule blocks. */
export interface WebAclLimits {
  /** Any request, per client IP. Default 2000. */
  perIp?: number;
  /** Widget writes (upload, delete, submit under `/v/`), per client IP. Default 100. */
  widgetWritesPerIp?: number;
  /**
   * Widget writes per session and route: the key is the request path, which holds the session token
   * (`/v/<token>/documents/<context>`), so one link cannot be replayed into paid extraction. Default 20.
   */
  widgetWritesPerSession?: number;
}

export const DEFAULT_WEB_ACL_LIMITS: Required<WebAclLimits> = { perIp: 2000, widgetWritesPerIp: 100, widgetWritesPerSession: 20 };

const visibility = (name: string): CfnWebACL.VisibilityConfigProperty => ({ metricName: name, cloudWatchMetricsEnabled: true, sampledRequestsEnabled: false });

/** The widget's writes: a path with a `/v/` segment (after the stage, or at the root of a custom domain), any method but GET. */
const WIDGET_WRITES: CfnWebACL.StatementProperty = {
  andStatement: {
    statements: [
      { byteMatchStatement: { fieldToMatch: { uriPath: {} }, positionalConstraint: 'CONTAINS', searchString: '/v/', textTransformations: [{ priority: 0, type: 'NONE' }] } },
      { notStatement: { statement: { byteMatchStatement: { fieldToMatch: { method: {} }, positionalConstraint: 'EXACTLY', searchString: 'GET', textTransformations: [{ priority: 0, type: 'NONE' }] } } } },
    ],
  },
};

const block = (name: string, priority: number, rateBasedStatement: CfnWebACL.RateBasedStatementProperty): CfnWebACL.RuleProperty => ({
  name,
  priority,
  action: { block: {} },
  statement: { rateBasedStatement },
  visibilityConfig: visibility(name),
});

/**
 * The rate-based rules that protect the public upload path (each upload starts paid extraction), for a
 * web ACL of your own: per client IP and per session. Priorities start at `firstPriority`.
 */
export function widgetRateRules(limits: WebAclLimits = {}, firstPriority = 0): CfnWebACL.RuleProperty[] {
  const l = { ...DEFAULT_WEB_ACL_LIMITS, ...limits };
  return [
    block('WidgetWritesPerIp', firstPriority, { aggregateKeyType: 'IP', limit: l.widgetWritesPerIp, evaluationWindowSec: 300, scopeDownStatement: WIDGET_WRITES }),
    block('WidgetWritesPerSession', firstPriority + 1, {
      aggregateKeyType: 'CUSTOM_KEYS',
      customKeys: [{ uriPath: { textTransformations: [{ priority: 0, type: 'NONE' }] } }],
      limit: l.widgetWritesPerSession,
      evaluationWindowSec: 300,
      scopeDownStatement: WIDGET_WRITES,
    }),
  ];
}

/**
 * A regional web ACL for the API stage: every client IP rate-limited, and the widget's writes far
 * lower per IP and per session. Blocked requests get WAF's 403.
 */
export class ServiceWebAcl extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: { limits?: WebAclLimits } = {}) {
    super(scope, id);
    const l = { ...DEFAULT_WEB_ACL_LIMITS, ...props.limits };
    this.webAcl = new CfnWebACL(this, 'Acl', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('IdvWebAcl'),
      rules: [block('PerIp', 0, { aggregateKeyType: 'IP', limit: l.perIp, evaluationWindowSec: 300 }), ...widgetRateRules(l, 1)],
    });
  }
}
