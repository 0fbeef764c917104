import type { Flow } from '../domain/flow';

/** Flow configuration, loaded from config/flows.json into the table at deploy and at local start. */
export interface FlowRepository {
  get(path: string): Promise<Flow | undefined>;
  list(): Promise<Flow[]>;
}
