/**
 * A snapshot file that cannot be a list: malformed, truncated or beyond the sizes a publisher's
 * file has. The loader refuses the snapshot (and keeps the previous one) rather than screening
 * against a partial list.
 */
export class SnapshotFormatError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = 'SnapshotFormatError';
  }
}
