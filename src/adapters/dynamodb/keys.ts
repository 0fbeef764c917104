/**
 * Key builders: the only place that knows how items are addressed (no key prefix, sort-key constant
 * or index name is written anywhere else; `test/unit/adapters/keys.test.ts` greps for them). See
 * docs/reference/data-model.md.
 */

/**
 * The table's secondary indexes (the table definition builds them from here). GSI1 groups items
 * under a named partition: the verifications of a flow, the flows, the tokens by name. GSI2: the
 * verifications of all flows. GSI3 (sparse): time-ordered work, read by the jobs (expiry, purge,
 * outbox, run tickets). GSI4 (lookup): the verifications of one status (all flows, or one flow), and
 * the search terms (projects `flow` and `status` so that search filters without reading items).
 */
export const indexes = {
  grouped: { name: 'GSI1', pk: 'GSI1PK', sk: 'GSI1SK' },
  all: { name: 'GSI2', pk: 'GSI2PK', sk: 'GSI2SK' },
  due: { name: 'GSI3', pk: 'GSI3PK', sk: 'GSI3SK' },
  lookup: { name: 'GSI4', pk: 'GSI4PK', sk: 'GSI4SK' },
} as const;

/** What a verification can be searched by (one entry item each, in its partition; see docs/reference/data-model.md). */
export const SEARCH_KINDS = ['id', 'ref', 'name', 'nameReversed'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

const VERIFICATION = 'VER#';
const COUNTER = 'COUNT';
const HISTORY = 'HIST#';
const LIVENESS_CHALLENGE = 'LIVENESS#C#';
const SCREENING = 'SCREEN#';
/** Items per list counter (see `keys.flowCounter`). */
export const COUNTER_SHARDS = 16;
const counterSort = (shard: number) => `${COUNTER}#${String(shard).padStart(2, '0')}`;
/** FNV-1a of the verification id, modulo the shard count: stable for the verification's lifetime. */
function counterShard(verificationId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < verificationId.length; i++) h = Math.imul(h ^ verificationId.charCodeAt(i), 0x01000193);
  return (h >>> 0) % COUNTER_SHARDS;
}

export const keys = {
  verification: (id: string) => ({ PK: `${VERIFICATION}${id}`, SK: 'VER' }),
  verificationPartition: (id: string) => `${VERIFICATION}${id}`,
  /** The verification id of an item of its partition (or of an index entry that projects its `PK`). */
  verificationIdOf: (pk: unknown) => String(pk).slice(VERIFICATION.length),
  document: (verificationId: string, context: string) => ({ PK: `${VERIFICATION}${verificationId}`, SK: `DOC#${context}` }),
  documentRef: (documentId: string) => ({ PK: `DOCREF#${documentId}`, SK: 'DOCREF' }),
  history: (verificationId: string, historyId: string) => ({ PK: `${VERIFICATION}${verificationId}`, SK: `${HISTORY}${historyId}` }),
  /** A liveness challenge of a verification (in its partition: the purge removes it), by its time-ordered nonce. */
  livenessChallenge: (verificationId: string, nonce: string) => ({ PK: `${VERIFICATION}${verificationId}`, SK: `${LIVENESS_CHALLENGE}${nonce}` }),
  livenessChallengePrefix: LIVENESS_CHALLENGE,
  /** How many challenges a verification was issued (changed in the transaction that issues one). */
  livenessCounter: (verificationId: string) => ({ PK: `${VERIFICATION}${verificationId}`, SK: 'LIVENESS#COUNT' }),
  /** History entries sort after the documents and before the list entries and the verification item (`IX#…`, `VER`). */
  historySortPrefix: HISTORY,
  /** Outside the verification's partition, so Get Verification does not read cached extractions. */
  extraction: (documentId: string) => ({ PK: `XTR#${documentId}`, SK: 'XTR' }),
  session: (tokenHash: string) => ({ PK: `SESSION#${tokenHash}`, SK: 'SESSION' }),
  flow: (path: string) => ({ PK: `FLOW#${path}`, SK: 'FLOW' }),
  /** A flow's entry in the list of flows. */
  flowListed: (path: string) => ({ GSI1PK: 'FLOWS', GSI1SK: path }),
  flowsPartition: 'FLOWS',
  token: (hash: string) => ({ PK: `TOKEN#${hash}`, SK: 'TOKEN' }),
  /** A token's entry in the name index (tokens stored before names were held are found there). */
  tokenByName: (name: string) => ({ GSI1PK: 'TOKENS', GSI1SK: name }),
  /** Never written: `/health` reads it to see that the table answers. */
  healthProbe: { PK: 'HEALTH', SK: 'HEALTH' },
  /** Holds a token name while a token carries it, so that two tokens cannot share a name. */
  tokenName: (name: string) => ({ PK: `TOKENNAME#${name}`, SK: 'TOKENNAME' }),
  /** Scope is the caller (the token's unique id) and operation; the key is the client's Idempotency-Key. */
  idempotency: (scope: string, key: string) => ({ PK: `IDEM#${scope}#${key}`, SK: 'IDEM' }),
  /**
   * List counters; they sit at the top of the newest-first index partitions they count. Each counter
   * is COUNTER_SHARDS items (sort keys `COUNT#00`…): a verification always moves the shard of its
   * id, so concurrent writes to different verifications rarely touch the same item (one item would
   * make every concurrent Create conflict with every other); a total is the sum of the shards.
   */
  flowCounter: (flow: string, shard = 0) => ({ PK: `${COUNTER}#FLOW#${flow}`, SK: counterSort(shard) }),
  allCounter: (shard = 0) => ({ PK: `${COUNTER}#ALL`, SK: counterSort(shard) }),
  isCounter: (item: Record<string, unknown>) => String(item.SK).startsWith(COUNTER),
  /** The counter shard a verification's changes move. */
  counterShard,
  /** One shard of the counter whose partition key is `pk`. */
  counterItem: (pk: string, shard: number) => ({ PK: pk, SK: counterSort(shard) }),
  /** Index keys of a verification (and of the matching counter, whose sort key `~` sorts after every `ver_…`). */
  byFlow: (flow: string, sk: string) => ({ GSI1PK: `FLOW#${flow}`, GSI1SK: sk }),
  all: (sk: string) => ({ GSI2PK: 'VERIFICATIONS', GSI2SK: sk }),
  COUNTER_SORT: '~',
  /** The verification item's own entry in the list of its status, all flows (GSI4). */
  byStatus: (status: number, id: string) => ({ GSI4PK: `STATUS#${status}`, GSI4SK: id }),
  /** The list of one status in one flow: an entry item in the verification's partition (GSI4). */
  flowStatusEntry: (verificationId: string) => ({ PK: `${VERIFICATION}${verificationId}`, SK: 'IX#FLOWSTATUS' }),
  byFlowStatus: (flow: string, status: number, id: string) => ({ GSI4PK: `FLOW#${flow}#STATUS#${status}`, GSI4SK: id }),
  /** Per-status counters, changed in the transaction that changes a status; at the top of the GSI4 partitions they count. */
  statusCounter: (status: number | '*', shard = 0) => ({ PK: `${COUNTER}#STATUS#${status}`, SK: counterSort(shard) }),
  flowStatusCounter: (flow: string, status: number | '*', shard = 0) => ({ PK: `${COUNTER}#FLOW#${flow}#STATUS#${status}`, SK: counterSort(shard) }),
  /** A search term entry (one per kind) in the verification's partition; its GSI4 key is the normalised term. */
  searchEntry: (verificationId: string, kind: SearchKind) => ({ PK: `${VERIFICATION}${verificationId}`, SK: `IX#TERM#${kind}` }),
  /** `\u0001` sorts before every character a normalised term holds, so a prefix of the term is a prefix of the key. */
  searchTerm: (term: string, id: string) => ({ GSI4PK: 'TERMS', GSI4SK: `${term}\u0001${id}` }),
  searchPartition: 'TERMS',
  /** Present only while a verification is Started: the expiry job queries it. */
  startedUntil: (expiresAt: string, id: string) => ({ GSI3PK: 'STARTED', GSI3SK: `${expiresAt}#${id}` }),
  startedPartition: 'STARTED',
  /** Set on soft delete: the purge job finds deleted verifications due for removal. */
  purgeAt: (at: string, id: string) => ({ GSI3PK: 'PURGE', GSI3SK: `${at}#${id}` }),
  purgePartition: 'PURGE',
  /** Events written with the change that caused them, until published (the outbox). */
  outbox: (eventId: string) => ({ PK: `OUTBOX#${eventId}`, SK: 'OUTBOX' }),
  outboxPending: (createdAt: string, eventId: string) => ({ GSI3PK: 'OUTBOX', GSI3SK: `${createdAt}#${eventId}` }),
  outboxPartition: 'OUTBOX',
  /** An event that can never be published (too large, malformed), kept with its reason for an operator. */
  outboxSetAside: (at: string, eventId: string) => ({ GSI3PK: 'OUTBOX#DEAD', GSI3SK: `${at}#${eventId}` }),
  outboxSetAsidePartition: 'OUTBOX#DEAD',
  /** The run ticket of a verification (one at a time: a new run replaces it), until its run ends. */
  runTicket: (verificationId: string) => ({ PK: `OUTBOX#RUN#${verificationId}`, SK: 'OUTBOX' }),
  runTicketDue: (checkedAt: string, verificationId: string) => ({ GSI3PK: 'RUNS', GSI3SK: `${checkedAt}#${verificationId}` }),
  runTicketPartition: 'RUNS',
  /**
   * The duplicate-document index: one partition per flow and document fingerprint (a keyed HMAC of
   * type, country and number, never the number), one item per verification showing that document.
   */
  documentSeen: (flow: string, fingerprint: string, verificationId: string) => ({ PK: `DOCSEEN#${flow}#${fingerprint}`, SK: `${VERIFICATION}${verificationId}` }),
  documentSeenPartition: (flow: string, fingerprint: string) => `DOCSEEN#${flow}#${fingerprint}`,
  /** Where a verification's duplicate-index entries are, so that its purge removes them (one item per entry). */
  documentSeenBy: (verificationId: string, flow: string, fingerprint: string) => ({ PK: `DOCSEENBY#${verificationId}`, SK: `DOCSEEN#${flow}#${fingerprint}` }),
  documentSeenByPartition: (verificationId: string) => `DOCSEENBY#${verificationId}`,
  /**
   * The duplicate-face index: one partition per flow, one item per verification (its latest selfie's
   * descriptor, biometric data: removed by the purge). Verification ids are ULIDs, so the sort key
   * orders the partition by creation and a Query reads the newest first.
   */
  faceSeen: (flow: string, verificationId: string) => ({ PK: `FACESEEN#${flow}`, SK: `${VERIFICATION}${verificationId}` }),
  faceSeenPartition: (flow: string) => `FACESEEN#${flow}`,
  /**
   * Screening (in the verification's partition: the purge removes them). A clearance per cleared list
   * entry; one item naming the people screened, listed under its flow in GSI1 (sparse: flows that
   * re-screen) so the re-screen job reads one small item per verification; an alert per entry a
   * re-screen reported.
   */
  screeningClearance: (verificationId: string, list: string, entry: string) => ({ PK: `${VERIFICATION}${verificationId}`, SK: `${SCREENING}CLEARED#${list}#${entry}` }),
  screeningClearancePrefix: `${SCREENING}CLEARED#`,
  screened: (verificationId: string) => ({ PK: `${VERIFICATION}${verificationId}`, SK: `${SCREENING}PEOPLE` }),
  screenedInFlow: (flow: string, verificationId: string) => ({ GSI1PK: `SCREENED#${flow}`, GSI1SK: verificationId }),
  screeningAlert: (verificationId: string, list: string, entry: string) => ({ PK: `${VERIFICATION}${verificationId}`, SK: `${SCREENING}ALERT#${list}#${entry}` }),
  screeningAlertPrefix: `${SCREENING}ALERT#`,
  /** Decision receipts of a verification, one per run (outside its partition: Get Verification does not read them). */
  receipt: (verificationId: string, run: number) => ({ PK: `RECEIPT#${verificationId}`, SK: `RUN#${String(run).padStart(10, '0')}` }),
  receiptPartition: (verificationId: string) => `RECEIPT#${verificationId}`,
} as const;

/** Webhook subscriptions (one partition per flow) and their deliveries (one partition per subscription). */
export const webhookKeys = {
  webhook: (flow: string, id: string) => ({ PK: `HOOKS#${flow}`, SK: `WHK#${id}` }),
  webhooksPartition: (flow: string) => `HOOKS#${flow}`,
  /** The sort-key prefix of the subscriptions in a flow's partition. */
  webhookSortPrefix: 'WHK#',
  delivery: (webhookId: string, id: string) => ({ PK: `WHK#${webhookId}`, SK: `DLV#${id}` }),
  deliveriesPartition: (webhookId: string) => `WHK#${webhookId}`,
  /** The sort-key prefix of the deliveries in a subscription's partition. */
  deliverySortPrefix: 'DLV#',
} as const;
