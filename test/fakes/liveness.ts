import type { LivenessChallenge, LivenessVerdict } from '../../src/domain/liveness/types';
import type { FaceLivenessImage, FaceLivenessProvider, FaceLivenessResult } from '../../src/ports/liveness';
import {
  type AcceptRefusal,
  burstFrames,
  type CompleteRefusal,
  type FaceLivenessRecordedResult,
  type FaceLivenessSessionRecord,
  type FaceLivenessSessions,
  type LivenessChallengeRecord,
  type LivenessChallenges,
  type LivenessClientSignals,
  type StoredBurst,
} from '../../src/ports/liveness';

/** One challenge item, as the table holds it: the challenge, and the provider session on it. */
interface Item {
  challenge: LivenessChallengeRecord;
  burst?: StoredBurst;
  provider?: { sessionId: string; region: string; result: FaceLivenessRecordedResult | null };
}

const clone = <T>(x: T): T => structuredClone(x);

/**
 * Liveness challenges in memory, one item per challenge as in the table, with the conditions of
 * DynamoLivenessChallenges; `sessions` is the FaceLivenessSessions port on the same items, with the
 * conditions of DynamoFaceLivenessSessions.
 */
export class InMemoryLiveness implements LivenessChallenges {
  readonly items = new Map<string, Item>();
  issued = new Map<string, number>();

  private key = (verificationId: string, nonce: string) => `${verificationId}#${nonce}`;
  private of(verificationId: string): Item[] {
    return [...this.items.values()].filter((i) => i.challenge.verificationId === verificationId).sort((a, b) => a.challenge.nonce.localeCompare(b.challenge.nonce));
  }

  async recent(verificationId: string, since: string) {
    const challenges = this.of(verificationId).filter((i) => i.challenge.issuedAt >= since).map((i) => clone(i.challenge));
    return { challenges, issued: this.issued.get(verificationId) ?? 0 };
  }
  async issue(c: LivenessChallenge, issued: number): Promise<boolean> {
    if ((this.issued.get(c.verificationId) ?? 0) !== issued) return false;
    this.issued.set(c.verificationId, issued + 1);
    this.items.set(this.key(c.verificationId, c.nonce), { challenge: { ...clone(c), frames: [], documentId: null, signals: null, verdict: null } });
    return true;
  }
  async get(verificationId: string, nonce: string) {
    const i = this.items.get(this.key(verificationId, nonce));
    return i ? clone(i.challenge) : undefined;
  }
  async accept(verificationId: string, nonce: string, use: { sessionHash: string; usedAt: string; frames: StoredBurst; signals: LivenessClientSignals }): Promise<{ accepted: true } | { accepted: false; reason: AcceptRefusal }> {
    const i = this.items.get(this.key(verificationId, nonce));
    if (!i || i.challenge.sessionHash !== use.sessionHash) return { accepted: false, reason: 'nonce_unknown' };
    if (i.challenge.usedAt !== null) return { accepted: false, reason: 'nonce_used' };
    if (i.challenge.expiresAt <= use.usedAt) return { accepted: false, reason: 'nonce_expired' };
    Object.assign(i.challenge, { usedAt: use.usedAt, frames: burstFrames(use.frames), signals: use.signals });
    i.burst = use.frames;
    return { accepted: true };
  }
  async bindDocument(verificationId: string, nonce: string, documentId: string): Promise<void> {
    const i = this.items.get(this.key(verificationId, nonce));
    if (!i || i.challenge.usedAt === null) throw new Error('ConditionalCheckFailed');
    i.challenge.documentId = documentId;
  }
  async forDocument(verificationId: string, documentId: string): Promise<LivenessChallengeRecord | undefined> {
    const i = this.of(verificationId).find((x) => x.challenge.documentId === documentId);
    return i ? clone(i.challenge) : undefined;
  }
  async recordVerdict(verificationId: string, nonce: string, verdict: LivenessVerdict): Promise<void> {
    const i = this.items.get(this.key(verificationId, nonce));
    if (!i) throw new Error('ConditionalCheckFailed');
    i.challenge.verdict = clone(verdict);
  }
  async frameKeys(verificationId: string): Promise<string[]> {
    return this.of(verificationId).flatMap((i) => (i.burst ? burstFrames(i.burst).map((f) => f.key) : []));
  }

  private session(i: Item): FaceLivenessSessionRecord {
    const c = i.challenge;
    const p = i.provider as NonNullable<Item['provider']>;
    return clone({
      verificationId: c.verificationId, nonce: c.nonce, sessionHash: c.sessionHash, provider: 'rekognition', sessionId: p.sessionId, region: p.region,
      issuedAt: c.issuedAt, expiresAt: c.expiresAt, completedAt: c.usedAt, result: p.result, documentId: c.documentId,
    });
  }

  readonly sessions: FaceLivenessSessions = {
    attach: async (verificationId, nonce, s) => {
      const i = this.items.get(this.key(verificationId, nonce));
      if (!i || i.challenge.sessionHash !== s.sessionHash || i.provider || i.challenge.usedAt !== null) throw new Error('ConditionalCheckFailed');
      i.provider = { sessionId: s.sessionId, region: s.region, result: null };
    },
    find: async (verificationId, sessionId) => {
      const i = this.of(verificationId).find((x) => x.provider?.sessionId === sessionId);
      return i ? this.session(i) : undefined;
    },
    complete: async (verificationId, nonce, done): Promise<{ completed: true } | { completed: false; reason: CompleteRefusal }> => {
      const i = this.items.get(this.key(verificationId, nonce));
      if (!i?.provider || i.challenge.sessionHash !== done.sessionHash || i.provider.sessionId !== done.sessionId) return { completed: false, reason: 'session_unknown' };
      if (i.challenge.usedAt !== null) return { completed: false, reason: 'session_used' };
      i.challenge.usedAt = done.completedAt;
      i.challenge.verdict = { passed: done.passed, reasons: (done.reason ? [done.reason] : []) as LivenessVerdict['reasons'], measures: done.result.confidence === null ? {} : { confidence: done.result.confidence } };
      i.provider.result = clone(done.result);
      return { completed: true };
    },
    forDocument: async (verificationId, documentId) => {
      const i = this.of(verificationId).find((x) => x.provider && x.challenge.documentId === documentId);
      return i ? this.session(i) : undefined;
    },
    imageKeys: async (verificationId) =>
      this.of(verificationId).flatMap((i) => {
        const r = i.provider?.result;
        return r ? [...(r.referenceImageKey ? [r.referenceImageKey] : []), ...r.auditImageKeys] : [];
      }),
  };
}

/** Rekognition Face Liveness as a script: sessions it created, and the result each will give. */
export class ScriptedFaceLiveness implements FaceLivenessProvider {
  readonly name = 'rekognition' as const;
  readonly region = 'eu-west-1';
  readonly created: { clientRequestToken: string; imageKeyPrefix: string; sessionId: string }[] = [];
  /** The next getResults answer (or error) for each session id. */
  readonly results = new Map<string, FaceLivenessResult | Error>();
  /** When set, createSession throws it. */
  failCreate: Error | undefined;
  private n = 0;

  async createSession(input: { clientRequestToken: string; imageKeyPrefix: string }) {
    if (this.failCreate) throw this.failCreate;
    this.n += 1;
    const sessionId = `00000000-0000-4000-8000-${String(this.n).padStart(12, '0')}`;
    this.created.push({ ...input, sessionId });
    return { sessionId };
  }
  async getResults(sessionId: string): Promise<FaceLivenessResult> {
    const r = this.results.get(sessionId);
    if (r instanceof Error) throw r;
    if (!r) throw new Error(`no scripted result for ${sessionId}`);
    return r;
  }
  /** Scripts a finished session: its status and confidence, the reference image and audit images as given. */
  finish(sessionId: string, status: FaceLivenessResult['status'], confidence: number | null, referenceImage: FaceLivenessImage | null, auditImages: FaceLivenessImage[] = []): void {
    this.results.set(sessionId, { sessionId, status, confidence, referenceImage, auditImages });
  }
}
