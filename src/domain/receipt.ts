import type { VerificationAggregate } from './entities';
import type { ExtractedData, RulesReport } from './rules';
import { verificationStatusLabel, type VerificationStatus } from './status';

/** The receipt format: a verifier refuses any other. */
export const RECEIPT_FORMAT = 'idv-decision-receipt/1';
/** ECDSA over SHA-256 on NIST P-256 (KMS `ECC_NIST_P256` / `ECDSA_SHA_256`; locally a P-256 key file), DER-encoded. */
export const RECEIPT_ALGORITHM = 'ECDSA_SHA_256';

/** What one automatic decision was made from, as signed. */
export interface ReceiptPayload {
  format: typeof RECEIPT_FORMAT;
  verification_id: string;
  flow: string;
  run: number;
  status_label: string;
  decided_at: string;
  documents: {
    id: string;
    context_type: string;
    /** SHA-256 (hex) of the stored image bytes; null when the image was stored before hashes were kept. */
    images: { front: string | null; back: string | null };
    extractor: string;
    extracted_data: ExtractedData | null;
    rules: RulesReport | null;
  }[];
}

/** A signed receipt as stored and served by GET …/verifications/{id}/receipt. */
export interface Receipt {
  payload: ReceiptPayload;
  /** SHA-256 (hex) of canonicalJson(payload): the bytes signed. */
  payload_sha256: string;
  algorithm: typeof RECEIPT_ALGORITHM;
  /** Base64 DER signature over canonicalJson(payload). */
  signature: string;
  /** The signing key: a KMS key ARN deployed, `local:<fingerprint>` locally. */
  key_id: string;
  /** The public key (PEM), for convenience: a verifier should hold its own copy (README). */
  public_key: string;
}

/**
 * JSON with object keys sorted at every level and no whitespace: the one byte sequence a payload
 * signs to, whatever order DynamoDB gives its maps back in.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** The payload of the decision recorded for `run`: the documents' images (hashes), extracted data, rules and their versions. */
export function receiptPayload(agg: VerificationAggregate, run: number, status: VerificationStatus, decidedAt: string): ReceiptPayload {
  return {
    format: RECEIPT_FORMAT,
    verification_id: agg.verification.id,
    flow: agg.verification.flow,
    run,
    status_label: verificationStatusLabel(status),
    decided_at: decidedAt,
    documents: [...agg.documents]
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((d) => ({
        id: d.id,
        context_type: d.contextType,
        images: { front: d.front.sha256 ?? null, back: d.back?.sha256 ?? null },
        extractor: d.extractionInfo?.extractor ?? d.rules?.versions?.extractor ?? 'unknown',
        extracted_data: d.extractedData,
        rules: d.rules,
      })),
  };
}
