import { createHash } from 'node:crypto';
import { BadRequestError } from '../domain/errors';
import type { ContextType } from '../domain/flow';
import { checkFile } from '../domain/file-checks';
import { CONTENT_TYPES, fileKind, imageDimensions } from '../domain/file-type';

/** Largest decoded image accepted, per side. The whole request must also fit the 6 MB body limit (Lambda payload). */
export const MAX_IMAGE_BYTES = 4 * 1024 * 1024;

const PDF = CONTENT_TYPES.pdf;

export interface DecodedImage {
  bytes: Uint8Array;
  contentType: string;
  sha256: string;
}

/** Largest image accepted, read from the header before anything decodes it (decompression bombs). */
export const MAX_IMAGE_SIDE = 10_000;
export const MAX_IMAGE_PIXELS = 40_000_000;

function checkDimensions(field: string, kind: 'jpg' | 'png' | 'webp', bytes: Uint8Array): void {
  let size: { width: number; height: number };
  try {
    size = imageDimensions(kind, bytes);
  } catch {
    throw new BadRequestError(`${field} is not a readable image: its header is truncated or corrupt`);
  }
  const { width, height } = size;
  if (width < 1 || height < 1) throw new BadRequestError(`${field} is not a readable image: no dimensions in its header`);
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS) {
    throw new BadRequestError(
      `${field} is ${width}×${height} pixels; the limit is ${MAX_IMAGE_SIDE} pixels a side and ${MAX_IMAGE_PIXELS / 1_000_000} megapixels`,
    );
  }
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const DATA_URL = /^data:[a-z]+\/[a-z0-9.+-]+;base64,/i;

/** The whole file checked (see src/domain/file-checks.ts): a truncated, corrupt or bomb file is the spec's 400. */
async function checkStructure(field: string, bytes: Buffer, contentType: string): Promise<void> {
  const problem = await checkFile(bytes, contentType);
  if (problem) throw new BadRequestError(`${field} is not a readable ${contentType === PDF ? 'PDF' : 'image'}: ${problem}`);
}

/**
 * Decodes a base64 image field and detects its real type from its bytes (the client's claim is ignored).
 * JPEG, PNG and WebP everywhere; PDF only for proof of address. The whole file is checked, within
 * bounds of pixels, inflated bytes and pages, before anything stores or decodes it.
 */
export async function decodeImage(field: string, value: string, context: ContextType): Promise<DecodedImage> {
  const text = value.replace(DATA_URL, '').replace(/\s+/g, '');
  if (text.length === 0) throw new BadRequestError(`${field} is missing: send the image as base64`);
  if (text.length % 4 !== 0 || !BASE64.test(text)) throw new BadRequestError(`${field} is not valid base64`);
  if ((text.length / 4) * 3 > MAX_IMAGE_BYTES + 3) {
    throw new BadRequestError(`${field} is larger than the ${MAX_IMAGE_BYTES} byte limit per image`);
  }
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new BadRequestError(`${field} is larger than the ${MAX_IMAGE_BYTES} byte limit per image`);
  }
  const kind = fileKind(bytes);
  if (kind && kind !== 'pdf') {
    const contentType = CONTENT_TYPES[kind];
    checkDimensions(field, kind, bytes);
    await checkStructure(field, bytes, contentType);
    return { bytes, contentType, sha256: sha256(bytes) };
  }
  if (kind === 'pdf') {
    if (context === 'PROOF_OF_ADDRESS') {
      await checkStructure(field, bytes, PDF);
      return { bytes, contentType: PDF, sha256: sha256(bytes) };
    }
    throw new BadRequestError(`${field} is a PDF, which is accepted only for PROOF_OF_ADDRESS documents`);
  }
  throw new BadRequestError(
    `${field} is not a supported image: send JPEG, PNG or WebP${context === 'PROOF_OF_ADDRESS' ? ' (or PDF)' : ''}`,
  );
}
