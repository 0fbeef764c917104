/** One stored image object: its key and when the store wrote it. */
export interface StoredImage {
  key: string;
  /** ISO 8601 UTC. */
  storedAt: string;
}

/**
 * The image store seen as a list of objects: what the orphan sweep needs and no request path
 * uses. A port of its own so that BlobStore (put, get, presign) stays what requests use, and so
 * that only the sweep's function is granted listing.
 */
export interface ImageInventory {
  /** Images under the image prefix stored before `before` (ISO 8601), a page at a time, in key order. */
  storedBefore(before: string): AsyncIterable<StoredImage[]>;
  /** Deletes the objects or throws (the sweep reports what it removed, so a failure must not pass for a removal). */
  remove(keys: string[]): Promise<void>;
}

/** One image key as the service writes it: documents/<verification>/<document>/<image>-<side>. */
export interface ImageKey {
  key: string;
  verificationId: string;
  documentId: string;
}

/**
 * Which stored images a record still names. An image a document names is kept whatever its
 * verification's state: a soft-deleted verification's documents are kept until the purge job,
 * which removes their images itself.
 */
export interface ImageReferences {
  /** The keys among `images` that the document they belong to (live or soft-deleted) names as its front or back. */
  referenced(images: ImageKey[]): Promise<Set<string>>;
}
