import type { DocumentRecord } from '../../domain/entities';
import { StaleRunError } from '../../domain/errors';
import type { Deps } from '../deps';

/** What the state machine passes between tasks: which verification, which run, which document. */
export interface RunInput {
  verificationId: string;
  run: number;
}

export interface RunItem extends RunInput {
  documentId: string;
}

export interface TaskResult extends RunItem {
  /** True when a newer run or a manual action superseded this one: the rest of the run does nothing. */
  stale: boolean;
  status?: string;
}

/** Writes a document for the run; a superseded run returns false instead of throwing. */
export async function saveForRun(deps: Pick<Deps, 'documents'>, prev: DocumentRecord, next: DocumentRecord, run: number): Promise<boolean> {
  try {
    await deps.documents.saveForRun(prev, next, run);
    return true;
  } catch (error) {
    if (error instanceof StaleRunError) return false;
    throw error;
  }
}
