import sharp from 'sharp';
import { portraitOf, selfieOf } from '../../scripts/documents/faces';
import { expectedData, generateDocument } from '../../scripts/documents/generate';
import { useNpmStart } from './npm-start';

/**
 * The liveness check as `npm start` serves it (its own process, the offline engines: Human's mesh on
 * two threads, face-api's descriptors), not the sandbox's payloads: a still photograph of the
 * passport's holder sent as a challenge's frames is observed frame by frame (one face in every
 * frame, the holder's) and refused for the actions it never performs.
 */
const started = useNpmStart();

const FLOW = 'id-and-live-selfie';

async function call(method: string, path: string, body?: unknown, auth = true): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', ...(auth && { Authorization: `Bearer ${started.token}` }) };
  const res = await fetch(`${started.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe('liveness through npm start (offline engines)', () => {
  it("observes a still photograph sent as a challenge's frames with the face models, and refuses it for the actions it never performs", async () => {
    const passport = await generateDocument('passport', 'scanned', 21, await portraitOf(3));
    const bill = await generateDocument('utility-bill', 'photographed', 22, undefined, passport.identity);
    // This flow asks for no proof of address: the expected data names the photo ID alone.
    const expected = expectedData(passport, bill) as { documents: { photo_id: unknown } };
    const created = await call('POST', `/api/v1/${FLOW}/verifications`, { ...expected, documents: { photo_id: expected.documents.photo_id } });
    expect([created.status, created.body.errors]).toEqual([201, undefined]);
    const v = created.body.data;
    const id = await call('POST', `/api/v1/${FLOW}/documents`, { verification: v.id, document: { context_type: 'PHOTO_ID', type: 1, country: passport.country, front_side_data: passport.front.toString('base64') } });
    expect(id.status).toBe(201);
    const widget = new URL(v.url).pathname;
    const challenge = await call('POST', `${widget}/liveness/challenge`, undefined, false);
    expect(challenge.status).toBe(201);
    const { nonce, steps } = challenge.body.data as { nonce: string; steps: { end_ms: number }[] };
    // The holder's selfie, held still in front of the camera: 11 frames a second until the last window closes, each a little brighter or darker.
    const selfie = await selfieOf(3);
    const end = (steps[steps.length - 1]?.end_ms ?? 0) + 100;
    const frames: { t: number; data: string }[] = [];
    for (let i = 0; i * (1000 / 11) <= end; i++) {
      const data = await sharp(selfie).resize(360, 480, { fit: 'cover' }).modulate({ brightness: 1 + ((i % 5) - 2) * 0.01 }).jpeg({ quality: 80 }).toBuffer();
      frames.push({ t: Math.round(i * (1000 / 11)), data: data.toString('base64') });
    }
    const sent = await call('POST', `${widget}/liveness/frames`, { nonce, document: { type: 6, country: passport.country }, frames }, false);
    expect(sent.status).toBe(201);
    expect((await call('PUT', `${widget}/submit`, undefined, false)).status).toBe(200);
    let got: any;
    for (let i = 0; i < 720; i++) {
      got = (await call('GET', `/api/v1/${FLOW}/verifications/${v.id}`)).body.data;
      if (!['Submitted', 'In Progress'].includes(got.status_label)) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(got.status_label).toBe('Double Check');
    const selfieDoc = got.documents.find((d: any) => d.document_type.type_label === 'Selfie');
    expect(selfieDoc.rules.results.find((r: any) => r.name === 'selfie.liveness')).toMatchObject({ result: 'review', required: true });
    const check = await call('GET', `/api/v1/${FLOW}/documents/${selfieDoc.id}/liveness`);
    expect(check.status).toBe(200);
    const { verdict } = check.body.data;
    expect(verdict.passed).toBe(false);
    expect(verdict.reasons).toContain('action_missing');
    // The face models ran on the frames, not a stand-in: one face in every frame, several described,
    // and the person in them is the passport's holder (the face engine's distance, under the review line).
    expect(check.body.data.frames).toBe(frames.length);
    expect(verdict.measures.single_face_share).toBe(1);
    expect(verdict.measures.described_frames).toBeGreaterThanOrEqual(3);
    expect(verdict.measures.portrait_distance).toBeLessThan(0.624);
  }, 300_000);
});
