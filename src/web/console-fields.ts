/**
 * How the console names and compares the fields of a case: plain functions with no outside reference
 * and no syntax that needs a helper, so that the console script embeds their source as it is
 * (`String(fn)`, as the widget does with its quality gate) and the unit tests run the very same code.
 * The labels themselves are texts of the console's locale file (src/web/locales/console.en.json).
 */

/**
 * A field's or a rule's label for a reviewer: the locale file's `field.<key>`; a cross-source rule
 * (`consistency.person.surname`) is its field's label in the `field.consistency.*` sentence; a key
 * the file does not name yet is spelt out from its last segment (`issuing_entity`: "Issuing entity"),
 * so that a dotted key is never what the reviewer reads.
 */
export function fieldLabel(key: string, labels: Record<string, string>): string {
  const own = labels[`field.${key}`];
  if (own !== undefined) return own;
  if (key.indexOf('consistency.') === 0) {
    const sentence = labels['field.consistency.*'];
    const field = fieldLabel(key.slice('consistency.'.length), labels);
    if (sentence !== undefined) return sentence.split('{field}').join(field);
  }
  const last = key.slice(key.lastIndexOf('.') + 1).replace(/_/g, ' ');
  return last.charAt(0).toUpperCase() + last.slice(1);
}

/**
 * Whether a rule compares two readings of one value (a name, a date, a number, a country): only there
 * is the differing part of the two worth marking. Rules whose "expected" is a condition (an age, an
 * expiry, an issue date, two sources, no duplicate, a face match) are not value comparisons: marking
 * their text against a value marks noise.
 */
export function isValueComparison(rule: string): boolean {
  if (rule === 'consistency.sources') return false;
  if (rule.indexOf('consistency.') === 0) return true;
  return /^(person\.(first_name|last_name|full_name|date_of_birth)|document\.(number|type|country|issuing_country)|address\.(full|country))$/.test(rule);
}
