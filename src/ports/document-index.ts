/** One verification showing one document, under the document's keyed fingerprint (never its number). */
export interface DocumentIndexEntry {
  flow: string;
  /** HMAC of document type, issuing country and number (src/app/workflow/duplicates.ts). */
  fingerprint: string;
  verificationId: string;
  documentId: string;
  createdAt: string;
}

/**
 * Which verifications of a flow showed the same identity document. Deployed and locally, one
 * DynamoDB partition per fingerprint: registering is a conditional put, finding is one Query.
 */
export interface DocumentIndex {
  /** Records the entry; registering the same verification again changes nothing. */
  register(entry: DocumentIndexEntry): Promise<void>;
  /** The verifications registered under the fingerprint in the flow, oldest first, at most `limit`. */
  find(flow: string, fingerprint: string, limit: number): Promise<{ verificationId: string; documentId: string }[]>;
  /** Removes every entry of the verification (the purge); nothing to remove is not an error. */
  removeVerification(verificationId: string): Promise<void>;
}

/**
 * Makes the keyed fingerprint of a normalised document description: HMAC-SHA256 with a key the
 * function cannot read (KMS GenerateMac deployed; a key file locally), base64url.
 */
export interface DocumentFingerprinter {
  fingerprint(message: string): Promise<string>;
}
