/**
 * The soak's clients: each drives its own verifications through the API as an integrator does
 * (create with an Idempotency-Key, upload sandbox images, submit, approve, reject, cancel, resubmit,
 * PATCH, delete) and reads anyone's (Get, List, Get Document); one more client approves and rejects
 * one verification over and over with long comments, to find a record that its own history bricks.
 * Every 2xx answer notes what it promises exists, for the checks after the run.
 */
import { sandboxPdf, sandboxPng } from '../../src/adapters/sandbox/test-images';
import { int, pick, random, type Rng } from '../documents/identity';
import { type Answer, type HttpContext, send, sendIdempotent, sleep } from './http';
import type { Promised, RequestRecord } from './invariants';

const FLOW = '/api/v1/default';
const EMAIL = 'reviewer@example.com';
/** Webhooks the soak creates at most (each approve, reject and cancel is delivered to every one). */
const MAX_WEBHOOKS = 6;

export interface TrafficContext extends HttpContext {
  seed: number;
  /** Date.now() after which no new operation starts (retries of a started one finish). */
  deadline: number;
  /** Base URL of the loopback webhook receiver. */
  hookBase: string;
  /** Ids learned from any client, for the reads and the checks. */
  known: { verifications: Set<string>; documents: Set<string> };
  webhooksTried: number;
  lastPage: number;
}

interface Owned {
  id: string;
  status: string;
  number: string;
  /** Whether the images say what the verification expects (else it is rejected or reviewed). */
  matching: boolean;
  photo?: string;
  poa?: string;
  gone: boolean;
}

const FINAL = new Set(['Approved', 'Rejected', 'Double Check', 'Hold', 'Expired']);

function createBody(reference: string, number: string) {
  return {
    vendor_reference: reference,
    person: { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1990-12-10' },
    address: { street: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'USA' },
    documents: { photo_id: { type: 'Passport', number, country: 'GBR' }, proof_of_address: { type: 'Utility Bill', country: 'USA' } },
  };
}

const passport = (number: string, seed: number) =>
  sandboxPng(64, 40, seed, {
    person: { given_names: 'Ada', surname: 'Lovelace', date_of_birth: '1990-12-10' },
    document: { number, country_code: 'GBR', expiration_date: '2031-01-01', type: 'P' },
  });
const bill = () => sandboxPdf({ person: { full_name: 'ADA LOVELACE' }, address: { full: '1 Main St, Austin TX 78701', country: 'USA' } });

/** A comment that starts with a marker unique to the operation (the same on every retry of it). */
function comment(rng: Rng, marker: string, long?: number): string {
  const length = long ? int(rng, Math.floor(long * 0.75), long) : int(rng, 10, 200);
  const text = `${marker} soak comment `;
  return text.repeat(Math.ceil(length / text.length)).slice(0, Math.max(length, marker.length));
}

function weighted<T extends string>(rng: Rng, choices: [T, number][]): T {
  const total = choices.reduce((s, [, w]) => s + w, 0);
  let x = rng() * total;
  for (const [c, w] of choices) {
    x -= w;
    if (x < 0) return c;
  }
  return choices[choices.length - 1]![0];
}

/**
 * One client: runs operations with a think time between them until the deadline. A `mixed` client
 * drives several verifications of its own and reads anyone's; the `hot` one approves and rejects one
 * verification over and over with comments as long as the service takes (it halves them on a 422).
 */
export class Worker {
  private readonly rng: Rng;
  private readonly owned: Owned[] = [];
  private counter = 0;
  private longComment = 2000;

  constructor(
    private readonly ctx: TrafficContext,
    private readonly id: number,
    private readonly role: 'mixed' | 'hot',
  ) {
    this.rng = random(ctx.seed * 1000 + id + 1);
  }

  async run(): Promise<void> {
    while (Date.now() < this.ctx.deadline) {
      await (this.role === 'hot' ? this.hotStep() : this.step());
      // The hot client thinks less: it must pass the ~110 actions after which issue 28 saw a record bricked.
      await sleep(this.role === 'hot' ? int(this.rng, 50, 150) : int(this.rng, 200, 600));
    }
  }

  private async hotStep(): Promise<void> {
    const v = this.owned.find((o) => !o.gone && o.status !== 'Canceled');
    if (!v) return this.create();
    const status = await this.action(v, v.status === 'Approved' ? 'reject' : 'approve', this.longComment);
    if (status === 422 && this.longComment > 100) this.longComment = Math.floor(this.longComment / 2);
  }

  private next(): string {
    this.counter += 1;
    return `soak-${this.ctx.seed}-w${this.id}-${this.counter}`;
  }

  private active(): Owned[] {
    return this.owned.filter((v) => !v.gone && v.status !== 'Canceled');
  }

  private async step(): Promise<void> {
    const active = this.active();
    const op = weighted(this.rng, [
      ['create', active.length < 4 ? 3 : 0.5],
      ['advance', active.length ? 8 : 0],
      ['get', this.ctx.known.verifications.size ? 4 : 0],
      ['getDocument', this.ctx.known.documents.size ? 1 : 0],
      ['list', 1.5],
      ['patchState', active.length ? 1.5 : 0],
      ['patchStatus', active.length ? 0.7 : 0],
      ['webhook', this.ctx.webhooksTried < MAX_WEBHOOKS ? 0.3 : 0],
      ['delete', active.length > 2 ? 0.3 : 0],
    ]);
    const some = () => pick(this.rng, active);
    switch (op) {
      case 'create':
        return this.create();
      case 'advance':
        return this.advance(some());
      case 'get':
        return this.get(pick(this.rng, [...this.ctx.known.verifications]));
      case 'getDocument': {
        const doc = pick(this.rng, [...this.ctx.known.documents]);
        await send(this.ctx, this.id, 'getDocument', 'GET', `${FLOW}/documents/${doc}`);
        return;
      }
      case 'list':
        return this.list();
      case 'patchState':
        return this.patchState(some());
      case 'patchStatus':
        return this.patchStatus(some());
      case 'webhook':
        return this.webhook();
      case 'delete':
        return this.remove(some());
    }
  }

  private async create(): Promise<void> {
    const reference = this.next();
    const matching = this.rng() < 0.7;
    const number = `P${this.ctx.seed}${this.id}${this.counter}`;
    const { answer, record } = await sendIdempotent(this.ctx, this.rng, this.id, 'createVerification', 'POST', `${FLOW}/verifications`, createBody(reference, number), {
      key: `${reference}-create`,
      reference,
    });
    if (answer.status !== 201 || !record.returnedId) return;
    promise(record, { kind: 'verification', id: record.returnedId });
    this.ctx.known.verifications.add(record.returnedId);
    this.owned.push({ id: record.returnedId, status: String(answer.body?.data?.status_label ?? 'Started'), number, matching, gone: false });
  }

  private async advance(v: Owned): Promise<void> {
    if (v.status === 'Started') {
      if (!v.photo) return this.upload(v, 'photo');
      if (!v.poa) return this.upload(v, 'poa');
      return this.submit(v);
    }
    if (FINAL.has(v.status)) {
      const choice = weighted(this.rng, [
        ['approve', v.status === 'Approved' ? 0 : 3],
        ['reject', v.status === 'Rejected' ? 0 : 2],
        ['resubmit', 2],
        ['cancel', 0.4],
        ['status', 1],
      ]);
      if (choice === 'status') return this.patchStatus(v);
      await this.action(v, choice);
      return;
    }
    return this.get(v.id);
  }

  private async upload(v: Owned, which: 'photo' | 'poa'): Promise<void> {
    const marker = this.next();
    const document =
      which === 'photo'
        ? { context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: passport(v.matching ? v.number : 'X999', this.counter).toString('base64') }
        : { context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'USA', front_side_data: bill().toString('base64') };
    const { answer, record } = await sendIdempotent(this.ctx, this.rng, this.id, 'createDocument', 'POST', `${FLOW}/documents`, { verification: v.id, document }, { key: `${marker}-document` });
    if (answer.status === 201 && record.returnedId) {
      promise(record, { kind: 'document', id: record.returnedId, verification: v.id });
      this.ctx.known.documents.add(record.returnedId);
      v[which] = record.returnedId;
      return;
    }
    await this.get(v.id);
  }

  private async submit(v: Owned): Promise<void> {
    const marker = this.next();
    const { answer, record } = await sendIdempotent(this.ctx, this.rng, this.id, 'submitVerification', 'PUT', `${FLOW}/verifications/${v.id}/submit`, undefined, { key: `${marker}-submit` });
    if (answer.status === 200) {
      promise(record, { kind: 'submitted', verification: v.id });
      v.status = String(answer.body?.data?.status_label ?? 'Submitted');
    } else await this.get(v.id);
  }

  /** A manual action with a comment (`long`: about that many characters); answers the final status. */
  private async action(v: Owned, action: 'approve' | 'reject' | 'cancel' | 'resubmit', long?: number): Promise<Answer['status']> {
    const marker = `[${this.next()}]`;
    const body = { comment: comment(this.rng, marker, long), email: EMAIL };
    const route = `${action}Verification`;
    const { answer, record } = await sendIdempotent(this.ctx, this.rng, this.id, route, 'PUT', `${FLOW}/verifications/${v.id}/${action}`, body, { key: `${marker.slice(1, -1)}-${action}` });
    if (answer.status === 200) {
      promise(record, { kind: 'comment', verification: v.id, marker });
      v.status = String(answer.body?.data?.status_label ?? v.status);
    } else await this.get(v.id);
    return answer.status;
  }

  private async patchStatus(v: Owned): Promise<void> {
    const marker = `[${this.next()}]`;
    const status = pick(this.rng, [1, 3, 4, 5, 8]);
    const { answer, record } = await send(this.ctx, this.id, 'updateVerification', 'PATCH', `${FLOW}/verifications/${v.id}`, { status, comment: comment(this.rng, marker), email: EMAIL });
    if (answer.status === 200) {
      promise(record, { kind: 'comment', verification: v.id, marker });
      v.status = String(answer.body?.data?.status_label ?? v.status);
    } else await this.get(v.id);
  }

  private async patchState(v: Owned): Promise<void> {
    const value = this.next();
    const { answer, record } = await send(this.ctx, this.id, 'updateVerification', 'PATCH', `${FLOW}/verifications/${v.id}`, { vendor_state: value }, { vendorState: { verification: v.id, value } });
    if (answer.status === 200) promise(record, { kind: 'vendor_state', verification: v.id, value });
  }

  private async remove(v: Owned): Promise<void> {
    v.gone = true;
    await send(this.ctx, this.id, 'deleteVerification', 'DELETE', `${FLOW}/verifications/${v.id}`, undefined, { deletes: v.id });
  }

  private async webhook(): Promise<void> {
    this.ctx.webhooksTried += 1;
    const key = `${this.next()}-webhook`;
    const url = `${this.ctx.hookBase}/${key}`;
    const { answer, record } = await sendIdempotent(this.ctx, this.rng, this.id, 'createWebhook', 'POST', `${FLOW}/webhooks`, { url, events: ['VerificationFinished', 'VerificationCanceled'] }, { key, reference: url });
    if (answer.status === 201 && record.returnedId) promise(record, { kind: 'webhook', id: record.returnedId });
  }

  private async list(): Promise<void> {
    const page = int(this.rng, 1, Math.max(1, this.ctx.lastPage));
    const { answer } = await send(this.ctx, this.id, 'listVerifications', 'GET', `${FLOW}/verifications?page=${page}`);
    const last = answer.body?.meta?.last_page;
    if (answer.status === 200 && typeof last === 'number') this.ctx.lastPage = last;
  }

  /** Get Verification; for an own one, learns its status and documents (after an unclear answer). */
  private async get(id: string): Promise<void> {
    const { answer } = await send(this.ctx, this.id, 'getVerification', 'GET', `${FLOW}/verifications/${id}`);
    const v = this.owned.find((o) => o.id === id);
    if (!v) return;
    if (answer.status === 404) v.gone = true;
    if (answer.status !== 200) return;
    const data = answer.body?.data;
    v.status = String(data?.status_label ?? v.status);
    for (const d of (data?.documents ?? []) as { id: string; document_type?: { type_label?: string } }[]) {
      this.ctx.known.documents.add(d.id);
      if (d.document_type?.type_label === 'Photo ID') v.photo = d.id;
      if (d.document_type?.type_label === 'Proof of Address') v.poa = d.id;
    }
  }
}

function promise(record: RequestRecord, promised: Promised): void {
  record.promised = promised;
}
