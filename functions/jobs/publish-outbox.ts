import { publishPending } from '../../src/app/events';
import { getDeps } from '../../src/container';

/** Every minute: events committed but not published (a crash, an EventBridge failure) are published again. */
export async function handler(): Promise<{ published: number }> {
  return publishPending(await getDeps(['events', 'outbox', 'clock']));
}
