import type { ListId, ListSnapshot } from '../../domain/screening/types';
import { OFAC_SDN, parseOfacSdn } from './ofac-sdn';
import { parseUnConsolidated, UN_SC } from './un-consolidated';

/**
 * One loader per list: the files a snapshot is made of (the first name found of each, in a
 * snapshot folder or an S3 prefix) and the parser. Another list (EU financial sanctions, UK OFSI,
 * a PEP source) is one more record here and one parser file.
 */
export interface ListLoader {
  list: ListId;
  /** Publisher and format, for the health page and the docs. */
  description: string;
  /** Each file of the snapshot: the names it may have (the repository's own first, then the publisher's) and whether the snapshot needs it. */
  files: { key: string; names: string[]; required: boolean }[];
  /** Parses the files' texts (by key); `takenAt` dates a snapshot whose format carries no date. Throws SnapshotFormatError. */
  parse(files: Readonly<Record<string, string>>, takenAt: string): ListSnapshot;
}

export const LOADERS: Readonly<Record<ListId, ListLoader>> = {
  [OFAC_SDN]: {
    list: OFAC_SDN,
    description: 'US Treasury OFAC Specially Designated Nationals, legacy CSV (sdn.csv; alt.csv and add.csv optional)',
    files: [
      { key: 'sdn', names: ['ofac-sdn.csv', 'sdn.csv'], required: true },
      { key: 'alt', names: ['ofac-alt.csv', 'alt.csv'], required: false },
      { key: 'add', names: ['ofac-add.csv', 'add.csv'], required: false },
    ],
    parse: (files, takenAt) => parseOfacSdn({ sdn: files.sdn ?? '', ...(files.alt ? { alt: files.alt } : {}), ...(files.add ? { add: files.add } : {}) }, takenAt),
  },
  [UN_SC]: {
    list: UN_SC,
    description: 'United Nations Security Council Consolidated List, XML',
    files: [{ key: 'xml', names: ['un-consolidated.xml', 'consolidated.xml'], required: true }],
    parse: (files) => parseUnConsolidated(files.xml ?? ''),
  },
};

/** The list ids a loader exists for. */
export function knownLists(): ListId[] {
  return Object.keys(LOADERS);
}
