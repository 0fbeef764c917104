/**
 * The EventBridge pattern features the rules use: exact values, `prefix`, `anything-but`
 * (values or prefix), `exists`, and nesting. No maintained npm package evaluates EventBridge
 * patterns, so the local bus uses this; CDK passes the same pattern objects to EventBridge.
 */
export type Matcher =
  | string
  | number
  | boolean
  | null
  | { prefix: string }
  | { 'anything-but': string | number | (string | number)[] | { prefix: string } }
  | { exists: boolean };

export interface EventPattern {
  [field: string]: Matcher[] | EventPattern;
}

function matchOne(matcher: Matcher, value: unknown, present: boolean): boolean {
  if (matcher === null || typeof matcher !== 'object') return present && value === matcher;
  if ('exists' in matcher) return matcher.exists === present;
  if (!present) return false;
  if ('prefix' in matcher) return typeof value === 'string' && value.startsWith(matcher.prefix);
  const but = matcher['anything-but'];
  if (typeof but === 'object' && but !== null && !Array.isArray(but)) return !(typeof value === 'string' && value.startsWith(but.prefix));
  const excluded = Array.isArray(but) ? but : [but];
  return !excluded.includes(value as string | number);
}

function matchField(matchers: Matcher[], value: unknown, present: boolean): boolean {
  // An array value matches when any of its elements matches (EventBridge semantics).
  if (Array.isArray(value)) return value.some((v) => matchers.some((m) => matchOne(m, v, true)));
  return matchers.some((m) => matchOne(m, value, present));
}

/** True when `event` matches `pattern`: every field of the pattern must match. */
export function matchesPattern(pattern: EventPattern, event: unknown): boolean {
  const obj = (event ?? {}) as Record<string, unknown>;
  return Object.entries(pattern).every(([field, rule]) => {
    const present = typeof obj === 'object' && obj !== null && Object.hasOwn(obj, field);
    const value = present ? obj[field] : undefined;
    if (Array.isArray(rule)) return matchField(rule, value, present);
    return present && typeof value === 'object' && value !== null && matchesPattern(rule, value);
  });
}
