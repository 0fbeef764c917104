/** One verification's selfie face descriptor (never the image): the duplicate-face index entry. */
export interface FaceIndexEntry {
  flow: string;
  verificationId: string;
  documentId: string;
  /** The face model that computed the descriptor; descriptors of different models are never compared. */
  model: string;
  /** The model's embedding of the selfie's largest face (face-api: 128 floats, Euclidean). Biometric data. */
  descriptor: number[];
  createdAt: string;
}

/**
 * The selfie descriptors of a flow, compared 1:N by the duplicate-face rule. Deployed and locally one
 * DynamoDB partition per flow, one item per verification (its latest selfie), newest first; at a
 * million verifications per flow a vector index takes its place (docs/explanation/fraud-signals.md).
 */
export interface FaceIndex {
  /** Records (or replaces: a new selfie of the same verification) the verification's descriptor. */
  register(entry: FaceIndexEntry): Promise<void>;
  /** The verification's own entry, read consistently. */
  get(flow: string, verificationId: string): Promise<FaceIndexEntry | undefined>;
  /** The flow's newest entries, at most `limit`, read consistently. */
  newest(flow: string, limit: number): Promise<FaceIndexEntry[]>;
  /** Deletes the verification's descriptor (the purge); nothing to delete is not an error. */
  remove(verificationId: string): Promise<void>;
}
