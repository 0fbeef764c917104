/**
 * Checks a decision receipt offline: no service, no AWS account, only node:crypto.
 *
 *   npx tsx scripts/verify-receipt.ts --receipt receipt.json --public-key key.pem [--image front.jpg ...]
 *
 * receipt.json: the body of GET /api/v1/{flow}/verifications/{id}/receipt (or its `data`).
 * key.pem: the public key, obtained out of band: locally `<data dir>/receipt-key.pem.pub.pem`;
 * deployed `aws kms get-public-key --key-id <ReceiptKeyId output> --query PublicKey --output text`
 * (base64 DER: wrap it in PEM lines, or pass it as is). Never trust the `public_key` inside the receipt
 * alone: whoever could forge the receipt could put their own key there.
 * Each --image is hashed (SHA-256) and must be one of the images the receipt names; every image the
 * receipt names must be given. Exit 0 when everything holds, 1 otherwise, with the reasons.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { canonicalJson, RECEIPT_FORMAT, type Receipt } from '../src/domain/receipt';

export interface ReceiptCheck {
  ok: boolean;
  problems: string[];
}

function publicKeyOf(text: string) {
  const trimmed = text.trim();
  return trimmed.startsWith('-----BEGIN') ? createPublicKey(trimmed) : createPublicKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'spki' });
}

/** Checks the signature with `publicKey` (PEM or base64 DER) and, when images are given, that they are exactly the receipt's. */
export function verifyReceipt(receipt: Receipt, publicKey: string, images?: Uint8Array[]): ReceiptCheck {
  const problems: string[] = [];
  if (receipt.payload?.format !== RECEIPT_FORMAT) problems.push(`unknown receipt format ${String(receipt.payload?.format)}`);
  const bytes = Buffer.from(canonicalJson(receipt.payload), 'utf8');
  if (createHash('sha256').update(bytes).digest('hex') !== receipt.payload_sha256) problems.push('payload_sha256 does not match the payload');
  let signed = false;
  try {
    signed = verify('sha256', bytes, publicKeyOf(publicKey), Buffer.from(receipt.signature, 'base64'));
  } catch (error) {
    problems.push(`signature not checkable: ${(error as Error).message}`);
  }
  if (!signed) problems.push('the signature does not verify with this public key');
  if (images) {
    const named = receipt.payload.documents.flatMap((d) => [d.images.front, d.images.back]).filter((h): h is string => h !== null);
    const given = images.map((b) => createHash('sha256').update(b).digest('hex'));
    for (const [i, h] of given.entries()) if (!named.includes(h)) problems.push(`image ${i + 1} (sha256 ${h.slice(0, 12)}…) is not an image of this decision`);
    for (const h of named) if (!given.includes(h)) problems.push(`the receipt names an image that was not given (sha256 ${h.slice(0, 12)}…)`);
  }
  return { ok: problems.length === 0, problems };
}

if (require.main === module) {
  const { values } = parseArgs({ options: { receipt: { type: 'string' }, 'public-key': { type: 'string' }, image: { type: 'string', multiple: true } } });
  if (!values.receipt || !values['public-key']) {
    console.error('Usage: npx tsx scripts/verify-receipt.ts --receipt receipt.json --public-key key.pem [--image file ...]');
    process.exit(2);
  }
  const raw = JSON.parse(readFileSync(values.receipt, 'utf8')) as { data?: Receipt } & Receipt;
  const receipt = raw.data ?? raw;
  const check = verifyReceipt(receipt, readFileSync(values['public-key'], 'utf8'), values.image?.map((f) => readFileSync(f)));
  if (check.ok) {
    console.log(`OK: ${receipt.payload.verification_id} run ${receipt.payload.run} ${receipt.payload.status_label}, signed by ${receipt.key_id}`);
  } else {
    for (const p of check.problems) console.error(`FAIL: ${p}`);
  }
  process.exit(check.ok ? 0 : 1);
}
