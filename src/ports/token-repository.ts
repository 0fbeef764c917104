/** API tokens, stored only as SHA-256 hashes. */
export interface ApiTokenRecord {
  name: string;
  hash: string;
  createdAt: string;
  /** Flows this token may use; absent means every flow. */
  flows?: string[];
  /**
   * A named reviewer token: its name (an e-mail address) is the acting user recorded in history for
   * every action it takes; a request cannot name anyone else.
   */
  reviewer?: boolean;
}

export interface ApiTokenRepository {
  findByHash(hash: string): Promise<ApiTokenRecord | undefined>;
  put(record: ApiTokenRecord): Promise<void>;
  /** Stores a new token unless a token with that name exists: false then, and nothing is written. */
  create(record: ApiTokenRecord): Promise<boolean>;
  deleteByName(name: string): Promise<number>;
}
