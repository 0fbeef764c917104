import * as v from 'valibot';
import ruleThresholds from '../../../config/rules.json';
import { duplicateFaceRule, FACE_LOOKUP_LIMIT, registerFace } from '../../../src/app/workflow/face-duplicates';
import type { DocumentRecord, VerificationAggregate } from '../../../src/domain/entities';
import { DEFAULT_CHECKS, type Flow, type FlowChecks } from '../../../src/domain/flow';
import { emptyExtractedData } from '../../../src/domain/rules';
import { RuleThresholdsSchema } from '../../../src/domain/rule-thresholds';
import type { VerificationRepository } from '../../../src/ports/verification-repository';
import { InMemoryFaceIndex } from '../../fakes/in-memory';

const thresholds = v.parse(RuleThresholdsSchema, ruleThresholds);

/** A unit vector along axis `i`, moved by `d` along axis `j`: distance between two of them is easy to reason about. */
const at = (i: number, moveTo = 0, d = 0) => Array.from({ length: 128 }, (_, k) => (k === i ? 1 : 0) + (k === moveTo ? d : 0));

function verification(id: string, name: [string, string], dob: string): VerificationAggregate {
  const x = emptyExtractedData();
  x.person = { given_names: name[0], surname: name[1], full_name: '', date_of_birth: dob };
  const doc = (context: 'PHOTO_ID' | 'SELFIE', n: string) => ({ id: `doc_${id}_${n}`, verificationId: id, flow: 'f', contextType: context, extractedData: context === 'PHOTO_ID' ? x : emptyExtractedData() }) as unknown as DocumentRecord;
  return {
    verification: { id, expectedData: { person: { first_name: name[0], last_name: name[1], date_of_birth: dob } } },
    documents: [doc('PHOTO_ID', 'p'), doc('SELFIE', 's')],
    history: [],
  } as unknown as VerificationAggregate;
}

const flow = (checks: Partial<FlowChecks> = {}) => ({ path: 'f', checks: { ...DEFAULT_CHECKS, ...checks } }) as Flow;
const selfieOf = (a: VerificationAggregate) => a.documents[1] as DocumentRecord;

async function setup(entries: [VerificationAggregate, number[], string?][]) {
  const faceIndex = new InMemoryFaceIndex();
  const byId = new Map(entries.map(([a]) => [a.verification.id, a]));
  for (const [a, descriptor, model] of entries) await faceIndex.register({ flow: 'f', verificationId: a.verification.id, documentId: selfieOf(a).id, model: model ?? 'm', descriptor, createdAt: '2026-01-01' });
  const verifications = { get: async (id: string) => byId.get(id) } as unknown as VerificationRepository;
  return { faceIndex, verifications, ruleThresholds: thresholds };
}

describe('duplicate.face', () => {
  const ada = verification('ver_01', ['Ada', 'Lovelace'], '1990-12-10');
  const grace = verification('ver_02', ['Grace', 'Hopper'], '1980-01-02');
  const adaAgain = verification('ver_03', ['Ada', 'Lovelace'], '1990-12-10');

  it('names the other person whose face is closer than the flow threshold, and passes a face farther away', async () => {
    const deps = await setup([[ada, at(0)], [grace, at(0, 1, 0.3)], [adaAgain, at(5)]]);
    expect(await duplicateFaceRule(deps, grace, selfieOf(grace), flow())).toMatchObject({ result: 'review', other_verification_ids: ['ver_01'], score: 0.3, threshold: 'distance < 0.45' });
    expect(await duplicateFaceRule(deps, adaAgain, selfieOf(adaAgain), flow())).toMatchObject({ result: 'passed', extracted: 'none' });
  });

  it('takes the threshold from the flow, and is left out when the flow switches it off', async () => {
    const deps = await setup([[ada, at(0)], [grace, at(0, 1, 0.3)]]);
    expect(await duplicateFaceRule(deps, grace, selfieOf(grace), flow({ duplicate_face_max_distance: 0.25 }))).toMatchObject({ result: 'passed', extracted: 'none', threshold: 'distance < 0.25' });
    expect(await duplicateFaceRule(deps, grace, selfieOf(grace), flow({ duplicate_face: false }))).toBeUndefined();
    expect(await duplicateFaceRule(deps, grace, grace.documents[0] as DocumentRecord, flow())).toBeUndefined();
  });

  it('passes the same person again, naming the earlier verification, and never compares descriptors of another model', async () => {
    const deps = await setup([[ada, at(0)], [grace, at(0), 'other-model'], [adaAgain, at(0, 1, 0.1)]]);
    expect(await duplicateFaceRule(deps, adaAgain, selfieOf(adaAgain), flow())).toMatchObject({ result: 'passed', extracted: 'same person', other_verification_ids: ['ver_01'] });
  });

  it('is not evaluated without a descriptor of this selfie, and registers none when switched off', async () => {
    const deps = await setup([[ada, at(0)]]);
    expect(await duplicateFaceRule(deps, grace, selfieOf(grace), flow())).toMatchObject({ result: 'not_evaluated' });
    await registerFace(deps, flow({ duplicate_face: false }), selfieOf(grace), { data: emptyExtractedData(), confidence: {}, face: { model: 'm', descriptor: at(0) } }, 'now');
    expect(await deps.faceIndex.get('f', 'ver_02')).toBeUndefined();
    await registerFace(deps, flow(), selfieOf(grace), { data: emptyExtractedData(), confidence: {}, face: { model: 'm', descriptor: at(0) } }, 'now');
    expect(await deps.faceIndex.get('f', 'ver_02')).toMatchObject({ model: 'm', documentId: 'doc_ver_02_s' });
  });

  it('compares a bounded number of descriptors per selfie', () => {
    expect(FACE_LOOKUP_LIMIT).toBe(1000);
  });
});
