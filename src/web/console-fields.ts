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

/** What `GET …/documents/{id}/liveness` answers (src/app/get-document-liveness.ts), as the console reads it. */
export interface LivenessView {
  provider: 'rekognition' | 'challenge';
  completed_at: string | null;
  verdict: { passed: boolean; reasons: string[]; measures: Record<string, number> } | null;
  session_id?: string;
  status?: string | null;
  confidence?: number | null;
  reference_image_url?: string | null;
  audit_image_urls?: string[];
  steps?: { action: string; start_ms: number; end_ms: number }[];
  frames?: number;
  signals?: { device_label: string | null; reported_fps: number | null; virtual_camera_label: boolean } | null;
}

/**
 * The images of a Rekognition liveness check a reviewer sees, each with the alt text a screen reader
 * says (texts `liveness.reference`, `liveness.audit`): the reference image (the frame Rekognition
 * compared, also the SELFIE's own front) and at most 4 audit images. The service's own challenge
 * links none: its verdict says what the frames showed.
 */
export function livenessImages(view: LivenessView, labels: Record<string, string>): { url: string; alt: string }[] {
  const out: { url: string; alt: string }[] = [];
  if (view.provider !== 'rekognition') return out;
  if (view.reference_image_url) out.push({ url: view.reference_image_url, alt: String(labels['liveness.reference']) });
  const audits = (view.audit_image_urls || []).slice(0, 4);
  audits.forEach((url, i) => {
    out.push({ url: url, alt: String(labels['liveness.audit']).split('{n}').join(String(i + 1)).split('{total}').join(String(audits.length)) });
  });
  return out;
}

/**
 * The outcome of a liveness check in rows of label and value, in words (texts `liveness.*`): who
 * judged it, the result with its named reasons, and what it rests on (Rekognition's status and
 * confidence; the challenge's actions with their windows, the frames, the check's measures and the
 * browser's camera signals, which never decide). An action or reason the texts do not name is spelt out;
 * `time` writes a timestamp as the rest of the page does.
 */
export function livenessRows(view: LivenessView, labels: Record<string, string>, time: (ts: string) => string): [string, string][] {
  const t = (key: string) => String(labels[key]);
  const spelt = (key: string, name: string) => (labels[key] === undefined ? name.replace(/_/g, ' ') : String(labels[key]));
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  const v = view.verdict;
  const reasons = v ? v.reasons.map((r) => spelt(`liveness.reason.${r}`, r)).join(', ') : '';
  const rows: [string, string][] = [
    [t('liveness.provider'), t(`liveness.provider.${view.provider}`)],
    [t('liveness.result'), !v ? t('liveness.unchecked') : v.passed ? t('liveness.passed') : t('liveness.refused').split('{reasons}').join(reasons)],
  ];
  if (view.provider === 'rekognition') {
    rows.push([t('liveness.status'), view.status || '—']);
    rows.push([t('liveness.confidence'), typeof view.confidence === 'number' ? view.confidence.toFixed(1) : '—']);
    rows.push([t('liveness.session'), view.session_id || '—']);
  } else {
    const steps = (view.steps || []).map((s) => `${spelt(`liveness.action.${s.action}`, s.action)} (${seconds(s.start_ms)}–${seconds(s.end_ms)} s)`);
    rows.push([t('liveness.actions'), steps.join(', ') || '—']);
    rows.push([t('liveness.frames'), String(view.frames || 0)]);
    const measures = v ? Object.keys(v.measures).map((k) => `${k.replace(/_/g, ' ')} ${Math.round((v.measures[k] as number) * 1000) / 1000}`) : [];
    if (measures.length) rows.push([t('liveness.measures'), measures.join(', ')]);
    const s = view.signals;
    if (s) {
      const camera = [s.device_label || t('liveness.camera.unnamed'), s.reported_fps === null ? '' : `${s.reported_fps} fps`].filter(Boolean).join(', ');
      rows.push([t('liveness.camera'), camera + (s.virtual_camera_label ? t('liveness.camera.virtual') : '')]);
    }
  }
  rows.push([t('liveness.completed'), view.completed_at ? time(view.completed_at) : '—']);
  return rows;
}
