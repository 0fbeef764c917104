/** Verification statuses: numbers in requests and storage, labels in responses. */
export const VerificationStatus = {
  Started: 1,
  Submitted: 2,
  Approved: 3,
  Rejected: 4,
  DoubleCheck: 5,
  Expired: 6,
  Canceled: 7,
  Hold: 8,
} as const;
export type VerificationStatus = (typeof VerificationStatus)[keyof typeof VerificationStatus];

const verificationLabels: Record<VerificationStatus, string> = {
  1: 'Started',
  2: 'Submitted',
  3: 'Approved',
  4: 'Rejected',
  5: 'Double Check',
  6: 'Expired',
  7: 'Canceled',
  8: 'Hold',
};

export function verificationStatusLabel(status: VerificationStatus): string {
  return verificationLabels[status];
}

export function isVerificationStatus(value: unknown): value is VerificationStatus {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 8;
}

/** Document statuses. Note the lower-case "check" in "Double check", as in the spec. */
export const DocumentStatus = {
  Uploaded: 1,
  InProgress: 2,
  Approved: 3,
  Rejected: 4,
  DoubleCheck: 5,
  Canceled: 6,
  Extracted: 7,
} as const;
export type DocumentStatus = (typeof DocumentStatus)[keyof typeof DocumentStatus];

const documentLabels: Record<DocumentStatus, string> = {
  1: 'Uploaded',
  2: 'In progress',
  3: 'Approved',
  4: 'Rejected',
  5: 'Double check',
  6: 'Canceled',
  7: 'Extracted',
};

export function documentStatusLabel(status: DocumentStatus): string {
  return documentLabels[status];
}

export function isDocumentStatus(value: unknown): value is DocumentStatus {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 7;
}
