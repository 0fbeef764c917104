import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { FaceIndex, FaceIndexEntry } from '../../ports/face-index';
import { keys } from './keys';
import { partitionItems } from './partition';

/** A descriptor as float32 bytes (128 floats: 512 bytes, a DynamoDB binary attribute). */
function pack(descriptor: number[]): Uint8Array {
  return new Uint8Array(Float32Array.from(descriptor).buffer);
}
function unpack(bytes: unknown): number[] {
  if (!(bytes instanceof Uint8Array) || bytes.byteLength % 4 !== 0) return [];
  const copy = new Uint8Array(bytes);
  return Array.from(new Float32Array(copy.buffer, 0, copy.byteLength / 4));
}

function fromItem(i: Record<string, unknown>): FaceIndexEntry {
  return {
    flow: i.flow as string,
    verificationId: i.verification_id as string,
    documentId: i.document_id as string,
    model: i.model as string,
    descriptor: unpack(i.descriptor),
    createdAt: i.created_at as string,
  };
}

/**
 * The duplicate-face index in the table (docs/reference/data-model.md): `FACESEEN#<flow>` / `VER#<id>`, a put
 * per selfie extraction, one Query (newest first, bounded) per lookup. Items hold ids, the model
 * name and the descriptor; never a name, a number or an image.
 */
export class DynamoFaceIndex implements FaceIndex {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async register(e: FaceIndexEntry): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...keys.faceSeen(e.flow, e.verificationId), entity: 'faceSeen', flow: e.flow, verification_id: e.verificationId, document_id: e.documentId, model: e.model, descriptor: pack(e.descriptor), created_at: e.createdAt },
      }),
    );
  }

  async get(flow: string, verificationId: string): Promise<FaceIndexEntry | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.faceSeen(flow, verificationId), ConsistentRead: true }));
    return out.Item ? fromItem(out.Item) : undefined;
  }

  async newest(flow: string, limit: number): Promise<FaceIndexEntry[]> {
    // A page holds at most 1 MB (about 1,600 entries): a limit above that takes more than one.
    return (await partitionItems(this.db, this.table, keys.faceSeenPartition(flow), { newestFirst: true, limit })).map(fromItem);
  }

  async remove(verificationId: string): Promise<void> {
    // The item is addressed by the verification's flow, read from the verification item (the purge removes that one last).
    const head = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.verification(verificationId), ProjectionExpression: 'flow', ConsistentRead: true }));
    const flow = head.Item?.flow;
    if (typeof flow !== 'string') return;
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: keys.faceSeen(flow, verificationId) }));
  }
}
