import { fieldLabel, isValueComparison, type LivenessView, livenessImages, livenessRows } from '../../../src/web/console-fields';
import { CONSOLE_JS } from '../../../src/web/console';
import livenessLabels from '../../../src/web/locales/console-liveness.en.json';
import labels from '../../../src/web/locales/console.en.json';

describe('console field labels', () => {
  it('names each field and rule in words from the locale file', () => {
    expect(fieldLabel('person.first_name', labels)).toBe('First name');
    expect(fieldLabel('documents.photo_id.country', labels)).toBe('Photo ID country');
    expect(fieldLabel('consistency.sources', labels)).toBe('Sources compared');
  });

  it('names a cross-source rule after its field', () => {
    expect(fieldLabel('consistency.person.surname', labels)).toBe('Surname, across sources');
  });

  it('spells out a key the locale file does not name, never showing it dotted', () => {
    expect(fieldLabel('document.security_thread', labels)).toBe('Security thread');
    expect(fieldLabel('consistency.document.hologram', {})).toBe('Hologram');
  });
});

describe('which rules compare two values', () => {
  it('marks names, dates, numbers and countries, read against expected or against another source', () => {
    for (const rule of ['person.last_name', 'person.date_of_birth', 'document.number', 'address.full', 'consistency.person.surname', 'consistency.name_across_documents']) {
      expect([rule, isValueComparison(rule)]).toEqual([rule, true]);
    }
  });

  it('does not mark conditions: the sources row, an age, an expiry, a duplicate, a face', () => {
    for (const rule of ['consistency.sources', 'person.minimum_age', 'document.not_expired', 'proof_of_address.issued_within', 'document.identified', 'duplicate.face', 'selfie.liveness', 'document.selfie_comparison']) {
      expect([rule, isValueComparison(rule)]).toEqual([rule, false]);
    }
  });
});

describe('a selfie\'s liveness check in the console', () => {
  const at = (ts: string) => `at ${ts}`;
  const rekognition: LivenessView = {
    provider: 'rekognition',
    session_id: '0f8fad5b-d9cb-469f-a165-70867728950e',
    completed_at: '2026-11-27T10:01:00.000000Z',
    status: 'SUCCEEDED',
    confidence: 72.25,
    verdict: { passed: false, reasons: ['provider_low_confidence'], measures: { confidence: 72.25 } },
    reference_image_url: 'https://s3.test/documents/ver_1/liveness-n/reference?X-Amz-Signature=r',
    audit_image_urls: [1, 2, 3, 4, 5].map((i) => `https://s3.test/documents/ver_1/liveness-n/audit-${i}?X-Amz-Signature=a`),
  };

  it('shows the reference image and at most 4 audit images, each with an alt text that says what it is', () => {
    const images = livenessImages(rekognition, livenessLabels);
    expect(images.map((i) => i.url)).toEqual([rekognition.reference_image_url, ...(rekognition.audit_image_urls ?? []).slice(0, 4)]);
    expect(images.map((i) => i.alt)).toEqual([
      'Liveness reference image: the frame Amazon Rekognition compared with the ID',
      ...[1, 2, 3, 4].map((n) => `Liveness audit image ${n} of 4, kept by Amazon Rekognition`),
    ]);
    expect(livenessImages({ ...rekognition, reference_image_url: null, audit_image_urls: [] }, livenessLabels)).toEqual([]);
  });

  it("says a Rekognition session's outcome in words: who checked, the refusal's reason, status, confidence", () => {
    expect(livenessRows(rekognition, livenessLabels, at)).toEqual([
      ['Checked by', 'Amazon Rekognition Face Liveness'],
      ['Result', 'Refused: confidence under the threshold'],
      ['Session status', 'SUCCEEDED'],
      ['Confidence', '72.3'],
      ['Session', rekognition.session_id],
      ['Completed', 'at 2026-11-27T10:01:00.000000Z'],
    ]);
  });

  it("says the service's own challenge in words: the actions and their windows, frames, measures, the camera as a signal; links no frame", () => {
    const challenge: LivenessView = {
      provider: 'challenge',
      completed_at: '2026-11-27T10:00:05.000000Z',
      steps: [{ action: 'turn_left', start_ms: 400, end_ms: 1650 }, { action: 'blink', start_ms: 1650, end_ms: 3000 }],
      frames: 54,
      verdict: { passed: false, reasons: ['flat_motion', 'action_missing'], measures: { frames: 54, homography_residual: 0.04321 } },
      signals: { device_label: 'OBS Virtual Camera', reported_fps: 30, virtual_camera_label: true },
    };
    expect(livenessRows(challenge, livenessLabels, at)).toEqual([
      ['Checked by', "The service's own challenge"],
      ['Result', 'Refused: flat motion (a picture moved as a plane), action missing'],
      ['Actions asked', 'turn left (0.4–1.6 s), blink (1.6–3.0 s)'],
      ['Frames', '54'],
      ['Measured', 'frames 54, homography residual 0.043'],
      ['Camera, as the browser named it', 'OBS Virtual Camera, 30 fps — a known virtual camera: a signal, never decisive'],
      ['Completed', 'at 2026-11-27T10:00:05.000000Z'],
    ]);
    expect(livenessImages(challenge, livenessLabels)).toEqual([]);
    expect(livenessRows({ ...challenge, verdict: null, signals: null }, livenessLabels, at)[1]).toEqual(['Result', 'Not checked']);
  });

  it('is the very code the console script runs, with its texts', () => {
    expect(CONSOLE_JS).toContain(`var livenessImages = (${String(livenessImages)});`);
    expect(CONSOLE_JS).toContain(`var livenessRows = (${String(livenessRows)});`);
    expect(CONSOLE_JS).toContain(JSON.stringify(livenessLabels['liveness.reference']));
    expect(() => new Function(CONSOLE_JS)).not.toThrow();
  });
});
