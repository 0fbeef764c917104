import { createHash } from 'node:crypto';
import { countryByIso3 } from '../domain/countries';
import { InvalidStateError, NotFoundError } from '../domain/errors';
import { findTypeById } from '../domain/flow';
import { VerificationStatus } from '../domain/status';
import type { Deps } from './deps';
import { loadDocument } from './documents';

const notFoundAs = (message: string) => (error: unknown): never => {
  throw error instanceof NotFoundError ? new NotFoundError(message) : error;
};

/** The document's PDF report as base64, for Approved verifications only; its SHA-256 is recorded on the document. */
export async function downloadDocumentPdf(deps: Pick<Deps, 'flows' | 'documents' | 'verifications' | 'blobs' | 'reports' | 'clock'>, flowPath: string, id: string): Promise<string> {
  const { flow, document } = await loadDocument(deps, flowPath, id);
  const aggregate = await deps.verifications.get(document.verificationId);
  if (!aggregate) throw new NotFoundError('Document not found');
  if (aggregate.verification.status !== VerificationStatus.Approved) {
    throw new InvalidStateError('Verification is not in Approved status');
  }
  const refs = [{ side: 'front' as const, ref: document.front }, ...(document.back ? [{ side: 'back' as const, ref: document.back }] : [])];
  // An image gone (the document deleted meanwhile, or lost from storage) leaves no report to make: 404.
  const images = await Promise.all(
    refs.map(async ({ side, ref }) => ({ side, bytes: await deps.blobs.get(ref.key).catch(notFoundAs('Document not found')), contentType: ref.contentType })),
  );
  const renderer = await deps.reports();
  const pdf = await renderer.render({
    aggregate,
    document,
    flowName: flow.name,
    typeName: findTypeById(flow, document.typeId)?.name ?? String(document.typeId),
    countryName: countryByIso3(document.country)?.name ?? document.country,
    images,
    generatedAt: deps.clock.now(),
  });
  const sha256 = createHash('sha256').update(pdf).digest('hex');
  await deps.documents.recordReportHash(document, sha256);
  return Buffer.from(pdf).toString('base64');
}
