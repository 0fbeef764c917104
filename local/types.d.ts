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
    /** Creates the configured buckets without listening (run() does it, then listens). */
    configureBuckets(): Promise<void>;
    /** The Koa request listener, for a server of our own. */
    callback(): (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void;
    logger?: { close(): void; exceptions?: { unhandle(): void } };
  }
}

declare module 'asl-validator' {
  export default function validator(definition: unknown, opts?: object): { isValid: boolean; errors: unknown[]; errorsText: (sep?: string) => string };
}
