import { publishPending } from '../../src/app/events';
import { getDeps } from '../../src/container';
import { ENTRY_PORTS } from '../../src/entries';
import { withLambdaContext } from '../../src/logger';

/**
 * Every minute: events committed but not published (a crash, an EventBridge failure) are published again;
 * one that can never be published is set aside (and alarms) instead of blocking the others.
 */
export const handler = withLambdaContext(async (): Promise<{ published: number; setAside?: number }> => {
  return publishPending(await getDeps(ENTRY_PORTS['jobs/publish-outbox']));
});
