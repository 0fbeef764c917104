import type { DocumentRecord, VerificationAggregate } from '../domain/entities';

export interface ReportInput {
  aggregate: VerificationAggregate;
  document: DocumentRecord;
  flowName: string;
  typeName: string;
  countryName: string;
  images: { side: 'front' | 'back'; bytes: Uint8Array; contentType: string }[];
  generatedAt: string;
}

/** Renders the document's PDF report (images, expected and extracted data, rules, decisions, history). */
export interface ReportRenderer {
  render(input: ReportInput): Promise<Uint8Array>;
}
