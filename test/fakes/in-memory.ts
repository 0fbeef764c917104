import type { Deps } from '../../src/app/deps';
import type { DocumentRecord, HistoryEntry, Verification, VerificationAggregate, VerificationChange } from '../../src/domain/entities';
import { BadRequestError, ConflictError, InvalidStateError, NotFoundError, StaleRunError } from '../../src/domain/errors';
import { type Flow, resolveFlows } from '../../src/domain/flow';
import { VerificationStatus } from '../../src/domain/status';
import type { BlobStore } from '../../src/ports/blob-store';
import type { Clock, IdGenerator } from '../../src/ports/clock';
import type { FlowRepository } from '../../src/ports/flow-repository';
import type { ApiTokenRecord, ApiTokenRepository } from '../../src/ports/token-repository';
import type { DocumentRepository, DocumentWithParent, VerificationFilter, VerificationRepository } from '../../src/ports/verification-repository';
import { normaliseSearch, searchTerms } from '../../src/domain/search';
import type { ExecutionState, RunExecution, WorkflowStarter } from '../../src/ports/workflow-starter';
import type { EventPublisher } from '../../src/ports/event-publisher';
import type { Outbox, RunTicket, SetAsideEvent } from '../../src/ports/outbox';
import type { HeldClaim, IdempotencyClaim, IdempotencyStore, StoredResponse } from '../../src/ports/idempotency';
import type { ExtractionCache } from '../../src/ports/extraction-cache';
import type { Extraction } from '../../src/ports/extractor';
import type { DeliveryJob, DeliveryQueue, SendResult, WebhookRepository, WebhookSender } from '../../src/ports/webhooks';
import type { Delivery, Webhook } from '../../src/domain/webhooks';
import type { DomainEvent } from '../../src/events/events';
import flowsFile from '../../config/flows.json';
import ruleThresholds from '../../config/rules.json';
import type { DocumentFingerprinter, DocumentIndex, DocumentIndexEntry } from '../../src/ports/document-index';
import type { FaceIndex, FaceIndexEntry } from '../../src/ports/face-index';
import type { ReceiptRepository, ReceiptSigner } from '../../src/ports/receipts';
import type { Receipt } from '../../src/domain/receipt';
import { createHmac, generateKeyPairSync, sign as cryptoSign } from 'node:crypto';
import * as v from 'valibot';
import { SandboxExtractor } from '../../src/adapters/sandbox/extractor';
import type { BusinessMetrics, MetricName, MetricUnit } from '../../src/ports/metrics';
import { RuleThresholdsSchema } from '../../src/domain/rule-thresholds';

const clone = <T>(x: T): T => structuredClone(x);

/** In-memory store with the same conditional semantics as the DynamoDB adapters. */
export class InMemoryStore implements VerificationRepository, DocumentRepository, Outbox {
  verifications = new Map<string, Verification & { deleted?: boolean }>();
  docs = new Map<string, DocumentRecord>();
  history = new Map<string, HistoryEntry[]>();
  sessions = new Map<string, string>();
  /** When set, the next document create throws it (fault injection). */
  failNextCreate: Error | undefined;

  /** Outbox rows written with the changes (the repository side of the Outbox port). */
  outboxRows = new Map<string, DomainEvent>();

  async pending(before: string, limit: number): Promise<DomainEvent[]> {
    return [...this.outboxRows.values()].filter((e) => e.detail.created_at < before).slice(0, limit).map(clone);
  }

  async remove(ids: string[]): Promise<void> {
    for (const id of ids) this.outboxRows.delete(id);
  }

  /** Events that can never be published, with their reason: out of the pending rows, kept. */
  deadRows = new Map<string, SetAsideEvent & { at: string }>();

  async setAside(items: readonly SetAsideEvent[], at: string): Promise<void> {
    for (const i of items) {
      this.outboxRows.delete(i.event.detail.id);
      this.deadRows.set(i.event.detail.id, { ...clone(i), at });
    }
  }

  /** Run tickets by verification id, written with the change that starts the run. */
  runTickets = new Map<string, RunTicket>();

  async dueRuns(before: string, limit: number): Promise<RunTicket[]> {
    return [...this.runTickets.values()]
      .filter((t) => t.checkedAt < before)
      .sort((a, b) => (a.checkedAt < b.checkedAt ? -1 : 1))
      .slice(0, limit)
      .map(clone);
  }

  async updateRun(ticket: RunTicket, next: RunTicket): Promise<boolean> {
    const current = this.runTickets.get(ticket.verificationId);
    if (!current || current.run !== ticket.run || current.attempt !== ticket.attempt || current.checkedAt !== ticket.checkedAt) return false;
    this.runTickets.set(ticket.verificationId, clone(next));
    return true;
  }

  async removeRun(ticket: RunTicket): Promise<void> {
    const current = this.runTickets.get(ticket.verificationId);
    if (current && current.run === ticket.run && current.attempt === ticket.attempt) this.runTickets.delete(ticket.verificationId);
  }

  private addOutbox(events: DomainEvent[] | undefined): void {
    for (const e of events ?? []) this.outboxRows.set(e.detail.id, clone(e));
  }

  async create(v: Verification, h: HistoryEntry, session: string): Promise<void>;
  async create(d: DocumentRecord, events?: DomainEvent[]): Promise<void>;
  async create(a: Verification | DocumentRecord, h?: HistoryEntry | DomainEvent[], session?: string): Promise<void> {
    if ('expectedData' in a) {
      this.verifications.set(a.id, clone(a));
      this.history.set(a.id, [clone(h as HistoryEntry)]);
      this.sessions.set(session as string, a.id);
      return;
    }
    if (this.failNextCreate) {
      const e = this.failNextCreate;
      this.failNextCreate = undefined;
      throw e;
    }
    const v = this.verifications.get(a.verificationId);
    if (!v || v.deleted || v.status !== VerificationStatus.Started) throw new InvalidStateError('Verification is not in Started status');
    if ([...this.docs.values()].some((d) => d.verificationId === a.verificationId && d.contextType === a.contextType)) {
      throw new BadRequestError(`A ${a.contextType} document already exists for this verification; delete it first`);
    }
    this.docs.set(a.id, clone(a));
    this.addOutbox(h as DomainEvent[] | undefined);
  }

  async get(id: string): Promise<VerificationAggregate | undefined>;
  async get(id: string): Promise<DocumentWithParent | undefined>;
  async get(id: string): Promise<VerificationAggregate | DocumentWithParent | undefined> {
    if (id.startsWith('doc_')) {
      const d = this.docs.get(id);
      const v = d && this.verifications.get(d.verificationId);
      return d && v && !v.deleted ? { document: clone(d), verification: clone(v) } : undefined;
    }
    const v = this.verifications.get(id);
    if (!v || v.deleted) return undefined;
    return {
      verification: clone(v),
      documents: [...this.docs.values()].filter((d) => d.verificationId === id).map(clone),
      history: clone(this.history.get(id) ?? []),
    };
  }

  async list(filter: VerificationFilter, page: number, perPage: number) {
    const term = filter.search === undefined ? undefined : normaliseSearch(filter.search);
    const all = [...this.verifications.values()]
      .filter((v) => !v.deleted && (!filter.flow || v.flow === filter.flow) && (filter.status === undefined || v.status === filter.status))
      .filter((v) => term === undefined || Object.values(searchTerms(v)).some((t) => t?.startsWith(term)))
      .sort((a, b) => (a.id < b.id ? 1 : -1));
    return { items: all.slice((page - 1) * perPage, page * perPage).map(clone), total: all.length };
  }

  async save(c: VerificationChange, events?: DomainEvent[]): Promise<void> {
    const current = this.verifications.get(c.verification.id);
    if (!current || current.deleted || current.version !== c.expectedVersion || current.status !== c.previous.status) throw new ConflictError();
    for (const d of c.documents) if (this.docs.get(d.id)?.version !== d.version - 1) throw new ConflictError();
    for (const d of c.requiredDocuments) if (this.docs.get(d.id)?.version !== d.version) throw new ConflictError();
    this.verifications.set(c.verification.id, clone(c.verification));
    for (const d of c.documents) this.docs.set(d.id, clone(d));
    this.history.get(c.verification.id)?.push(...clone(c.history));
    this.addOutbox(events);
    if (c.startWorkflow) {
      const at = c.verification.updatedAt;
      this.runTickets.set(c.verification.id, { verificationId: c.verification.id, run: c.verification.run, attempt: 0, startedAt: at, checkedAt: at });
    }
  }

  async findBySession(hash: string): Promise<string | undefined> {
    return this.sessions.get(hash);
  }

  async startedExpiredBefore(now: string, limit: number): Promise<string[]> {
    return [...this.verifications.values()]
      .filter((v) => !v.deleted && v.status === VerificationStatus.Started && v.expiresAt < now)
      .sort((a, b) => (a.expiresAt < b.expiresAt ? -1 : 1))
      .slice(0, limit)
      .map((v) => v.id);
  }

  purgeDue = new Map<string, string>();

  async softDelete(v: Verification, _deletedAt: string, purgeAt: number): Promise<void> {
    const current = this.verifications.get(v.id);
    if (!current || current.deleted || current.status !== v.status) throw new ConflictError();
    current.deleted = true;
    this.purgeDue.set(v.id, new Date(purgeAt * 1000).toISOString());
  }

  async deletedDueBefore(now: string, limit: number): Promise<string[]> {
    return [...this.purgeDue.entries()].filter(([, at]) => at < now).slice(0, limit).map(([id]) => id);
  }

  async purge(id: string, session: string, removeImages: (keys: string[]) => Promise<void>): Promise<void> {
    const docs = [...this.docs.values()].filter((d) => d.verificationId === id);
    await removeImages(docs.flatMap((d) => [d.front.key, ...(d.back ? [d.back.key] : [])]));
    for (const d of docs) this.docs.delete(d.id);
    this.history.delete(id);
    this.sessions.delete(session);
    this.verifications.delete(id);
    this.purgeDue.delete(id);
  }

  async update(prev: DocumentRecord, next: DocumentRecord, events?: DomainEvent[]): Promise<void> {
    if (this.docs.get(prev.id)?.version !== prev.version) throw new ConflictError();
    this.docs.set(next.id, clone(next));
    this.addOutbox(events);
  }

  async saveForRun(prev: DocumentRecord, next: DocumentRecord, run: number): Promise<void> {
    const v = this.verifications.get(prev.verificationId);
    if (!v || v.deleted || v.run !== run || v.processedRun >= run || (v.status !== VerificationStatus.Submitted && v.status !== VerificationStatus.DoubleCheck)) {
      throw new StaleRunError();
    }
    await this.update(prev, next);
  }

  async delete(d: DocumentRecord, onlyIfStarted?: { verificationVersion: number }): Promise<void> {
    const v = this.verifications.get(d.verificationId);
    if (onlyIfStarted && (v?.status !== VerificationStatus.Started || v.version !== onlyIfStarted.verificationVersion)) throw new ConflictError();
    if (!this.docs.delete(d.id)) throw new NotFoundError('Document not found');
  }

  async recordReportHash(d: DocumentRecord, sha256: string): Promise<void> {
    const stored = this.docs.get(d.id);
    if (stored) stored.reportSha256 = sha256;
  }
}

export class InMemoryBlobs implements BlobStore {
  objects = new Map<string, { body: Uint8Array; contentType: string }>();
  failPutAfter: number | undefined;
  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    if (this.failPutAfter !== undefined && this.objects.size >= this.failPutAfter) throw new Error('S3 unavailable');
    this.objects.set(key, { body, contentType });
  }
  async get(key: string): Promise<Uint8Array> {
    const o = this.objects.get(key);
    if (!o) throw new Error('NoSuchKey');
    return o.body;
  }
  async delete(keys: string[]): Promise<void> {
    for (const k of keys) this.objects.delete(k);
  }
  async deleteOrThrow(keys: string[]): Promise<void> {
    await this.delete(keys);
  }
  async signedGetUrl(key: string, seconds: number): Promise<string> {
    return `https://blobs.test/${key}?expires=${seconds}`;
  }
}

export class StaticFlows implements FlowRepository {
  readonly flows: Flow[] = resolveFlows(flowsFile);
  async get(path: string) {
    return this.flows.find((f) => f.path === path);
  }
  async list() {
    return this.flows;
  }
}

export class RecordingWorkflow implements WorkflowStarter {
  starts: RunExecution[] = [];
  /** What `state` answers, by execution name `<id>#<run>#<attempt>`; unknown executions are absent. */
  states = new Map<string, ExecutionState>();
  async start(input: RunExecution) {
    this.starts.push(input);
  }
  async state(input: RunExecution): Promise<ExecutionState> {
    return this.states.get(`${input.verificationId}#${input.run}#${input.attempt ?? 0}`) ?? 'absent';
  }
}

export class FixedClock implements Clock {
  constructor(public value = '2026-01-02T03:04:05.123456Z') {}
  now() {
    return this.value;
  }
}

export class SequentialIds implements IdGenerator {
  private n = 0;
  next(prefix: string) {
    this.n += 1;
    return `${prefix}_${String(this.n).padStart(26, '0')}`;
  }
}

export class InMemoryTokens implements ApiTokenRepository {
  records: ApiTokenRecord[] = [];
  async findByHash(hash: string) {
    return this.records.find((r) => r.hash === hash);
  }
  async put(r: ApiTokenRecord) {
    this.records.push(r);
  }
  async create(r: ApiTokenRecord) {
    if (this.records.some((x) => x.name === r.name)) return false;
    this.records.push(r);
    return true;
  }
  async deleteByName(name: string) {
    const before = this.records.length;
    this.records = this.records.filter((r) => r.name !== name);
    return before - this.records.length;
  }
}

export class RecordingEvents implements EventPublisher {
  published: DomainEvent[] = [];
  async publish(events: DomainEvent[]) {
    this.published.push(...events);
  }
}

export class InMemoryWebhooks implements WebhookRepository {
  hooks = new Map<string, Webhook>();
  deliveries = new Map<string, Delivery>();
  async create(w: Webhook) {
    this.hooks.set(w.id, clone(w));
  }
  async list(flow: string) {
    return [...this.hooks.values()].filter((w) => w.flow === flow).map(clone);
  }
  async get(flow: string, id: string) {
    const w = this.hooks.get(id);
    return w && w.flow === flow ? clone(w) : undefined;
  }
  async delete(flow: string, id: string) {
    return (await this.get(flow, id)) !== undefined && this.hooks.delete(id);
  }
  async createDelivery(d: Delivery) {
    if (this.deliveries.has(d.id)) return false;
    this.deliveries.set(d.id, clone(d));
    return true;
  }
  async getDelivery(_webhookId: string, id: string) {
    const d = this.deliveries.get(id);
    return d && clone(d);
  }
  async saveDelivery(next: Delivery) {
    if (this.deliveries.get(next.id)?.version !== next.version - 1) throw new ConflictError();
    this.deliveries.set(next.id, clone(next));
  }
  async listDeliveries(webhookId: string, limit: number) {
    return [...this.deliveries.values()].filter((d) => d.webhookId === webhookId).reverse().slice(0, limit).map(clone);
  }
}

export class RecordingQueue implements DeliveryQueue {
  queued: { job: DeliveryJob; delaySeconds: number }[] = [];
  dead: { job: DeliveryJob; reason: string }[] = [];
  async enqueue(job: DeliveryJob, delaySeconds: number) {
    this.queued.push({ job, delaySeconds });
  }
  async deadLetter(job: DeliveryJob, reason: string) {
    this.dead.push({ job, reason });
  }
}

/** Answers with the scripted status codes in turn (null = connection failure). */
export class ScriptedSender implements WebhookSender {
  sent: { url: string; headers: Record<string, string>; body: string }[] = [];
  constructor(public script: (number | null)[] = [200]) {}
  async send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    this.sent.push({ url, headers, body });
    const code = this.script.length > 1 ? this.script.shift()! : this.script[0]!;
    return { statusCode: code, error: code === null ? 'connection failed' : null, durationMs: 1 };
  }
}

export class InMemoryExtractionCache implements ExtractionCache {
  items = new Map<string, { key: string; extraction: Extraction; images: readonly string[] }>();
  async get(_v: string, documentId: string, key: string) {
    const hit = this.items.get(documentId);
    return hit && hit.key === key ? clone(hit.extraction) : undefined;
  }
  async put(_v: string, documentId: string, key: string, extraction: Extraction, images: readonly string[]) {
    this.items.set(documentId, { key, extraction: clone(extraction), images: [...images] });
  }
  async latest(documentId: string) {
    const hit = this.items.get(documentId);
    return hit ? { extraction: clone(hit.extraction), images: [...hit.images] } : undefined;
  }
}

export class InMemoryIdempotency implements IdempotencyStore {
  records = new Map<string, { hash: string; token: string; response?: StoredResponse }>();
  private claims = 0;
  async claim(scope: string, key: string, requestHash: string): Promise<IdempotencyClaim> {
    const r = this.records.get(`${scope}#${key}`);
    if (!r) {
      const token = `claim-${++this.claims}`;
      this.records.set(`${scope}#${key}`, { hash: requestHash, token });
      return { state: 'claimed', claim: { scope, key, token } };
    }
    if (r.hash !== requestHash) return { state: 'mismatch' };
    return r.response ? { state: 'replay', response: r.response } : { state: 'in-progress' };
  }
  /** The fakes' writes are not transactions: the work simply runs (the DynamoDB adapter's guard is tested against DynamoDB Local). */
  guard<T>(_claim: HeldClaim, work: () => Promise<T>): Promise<T> {
    return work();
  }
  async complete(claim: HeldClaim, response: StoredResponse) {
    const r = this.records.get(`${claim.scope}#${claim.key}`);
    if (r?.token === claim.token) r.response = response;
  }
  async release(claim: HeldClaim) {
    if (this.records.get(`${claim.scope}#${claim.key}`)?.token === claim.token) this.records.delete(`${claim.scope}#${claim.key}`);
  }
}

export class InMemoryDocumentIndex implements DocumentIndex {
  entries: DocumentIndexEntry[] = [];
  async register(e: DocumentIndexEntry) {
    if (!this.entries.some((x) => x.flow === e.flow && x.fingerprint === e.fingerprint && x.verificationId === e.verificationId)) this.entries.push({ ...e });
  }
  async find(flow: string, fingerprint: string, limit: number) {
    return this.entries.filter((x) => x.flow === flow && x.fingerprint === fingerprint).slice(0, limit).map((x) => ({ verificationId: x.verificationId, documentId: x.documentId }));
  }
  async removeVerification(verificationId: string) {
    this.entries = this.entries.filter((x) => x.verificationId !== verificationId);
  }
}

export class InMemoryFaceIndex implements FaceIndex {
  entries: FaceIndexEntry[] = [];
  async register(e: FaceIndexEntry) {
    this.entries = [...this.entries.filter((x) => !(x.flow === e.flow && x.verificationId === e.verificationId)), clone(e)];
  }
  async get(flow: string, verificationId: string) {
    const e = this.entries.find((x) => x.flow === flow && x.verificationId === verificationId);
    return e ? clone(e) : undefined;
  }
  async newest(flow: string, limit: number) {
    return this.entries.filter((x) => x.flow === flow).sort((a, b) => (a.verificationId < b.verificationId ? 1 : -1)).slice(0, limit).map(clone);
  }
  async remove(verificationId: string) {
    this.entries = this.entries.filter((x) => x.verificationId !== verificationId);
  }
}

export class InMemoryReceipts implements ReceiptRepository {
  items: Receipt[] = [];
  async put(r: Receipt) {
    if (!(await this.has(r.payload.verification_id, r.payload.run))) this.items.push(clone(r));
  }
  async has(verificationId: string, run: number) {
    return this.items.some((r) => r.payload.verification_id === verificationId && r.payload.run === run);
  }
  async removeAll(verificationId: string) {
    this.items = this.items.filter((r) => r.payload.verification_id !== verificationId);
  }
  async latest(verificationId: string) {
    return this.items.filter((r) => r.payload.verification_id === verificationId).sort((a, b) => b.payload.run - a.payload.run)[0];
  }
}

/** A P-256 key held in memory. */
export class InMemorySigner implements ReceiptSigner {
  readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  async sign(message: Uint8Array) {
    return { signature: cryptoSign('sha256', message, this.keys.privateKey), keyId: 'test-key' };
  }
  async publicKeyPem() {
    return this.keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  }
}

/** Fingerprints with a fixed test key (the local adapter's HMAC-SHA256, no file). */
export class InMemoryFingerprinter implements DocumentFingerprinter {
  async fingerprint(message: string) {
    return createHmac('sha256', 'test-fingerprint-key').update(message).digest('base64url');
  }
}

/** Business metrics as recorded, in order. */
export class RecordingMetrics implements BusinessMetrics {
  readonly recorded: { name: MetricName; value: number; unit: MetricUnit; dimensions: Readonly<Record<string, string>> }[] = [];
  record(name: MetricName, value: number, unit: MetricUnit, dimensions: Readonly<Record<string, string>> = {}): void {
    this.recorded.push({ name, value, unit, dimensions });
  }
  /** The values recorded under one name. */
  values(name: MetricName): number[] {
    return this.recorded.filter((m) => m.name === name).map((m) => m.value);
  }
}

export function fakeDeps() {
  const store = new InMemoryStore();
  const blobs = new InMemoryBlobs();
  const workflow = new RecordingWorkflow();
  const tokens = new InMemoryTokens();
  const events = new RecordingEvents();
  const webhooks = new InMemoryWebhooks();
  const queue = new RecordingQueue();
  const sender = new ScriptedSender();
  const metrics = new RecordingMetrics();
  const deps: Deps = {
    verifications: store,
    documents: store,
    flows: new StaticFlows(),
    blobs,
    workflow,
    tokens,
    idempotency: new InMemoryIdempotency(),
    reports: async () => new (await import('../../src/adapters/pdf/report-renderer')).PdfLibReportRenderer(),
    extractor: new SandboxExtractor(blobs),
    extractionCache: new InMemoryExtractionCache(),
    documentIndex: new InMemoryDocumentIndex(),
    faceIndex: new InMemoryFaceIndex(),
    receipts: new InMemoryReceipts(),
    receiptSigner: new InMemorySigner(),
    documentFingerprints: new InMemoryFingerprinter(),
    ruleThresholds: v.parse(RuleThresholdsSchema, ruleThresholds),
    events,
    outbox: store,
    webhooks,
    deliveries: queue,
    webhookSender: sender,
    webhookRetry: { baseSeconds: 30, maxDelaySeconds: 900, maxAgeSeconds: 93600 },
    webhookPolicy: { requireHttps: true },
    clock: new FixedClock(),
    ids: new SequentialIds(),
    sessionSecret: Buffer.from('test-secret'),
    publicBaseUrl: undefined,
    deletedRetentionDays: 30,
    usageKeys: false,
    probes: [],
    // The orphan-image sweep's ports: its tests bring their own (test/unit/app/sweep-orphans.test.ts).
    imageInventory: { storedBefore: async function* () {}, remove: async () => {} },
    imageReferences: { referenced: async () => new Set<string>() },
    metrics,
  };
  return { deps, store, blobs, workflow, tokens, events, webhooks, queue, sender, metrics };
}

export const REQ = { baseUrl: 'https://api.test/v1' };
