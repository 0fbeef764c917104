import { Logger } from '@aws-lambda-powertools/logger';

/** One logger per process. Log ids and error names only: never bodies, names, addresses or images. */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'idv' });
