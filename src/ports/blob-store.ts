/** Image storage. Keys carry only identifiers, never personal data. */
export interface BlobStore {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<Uint8Array>;
  /** Best effort: used for compensation and cleanup; failures are logged by the adapter, not thrown. */
  delete(keys: string[]): Promise<void>;
  /** Deletes or throws (the purge must not forget images it could not delete). */
  deleteOrThrow(keys: string[]): Promise<void>;
  /** A presigned GET link valid for `seconds`. */
  signedGetUrl(key: string, seconds: number): Promise<string>;
}
