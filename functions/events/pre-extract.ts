import type { EventBridgeEvent } from 'aws-lambda';
import { preExtract } from '../../src/app/workflow/pre-extract';
import { getDeps } from '../../src/container';
import type { EventDetail } from '../../src/events/events';
import { ENTRY_PORTS } from '../../src/entries';
import { withLambdaContext } from '../../src/logger';

/** Target of the PreExtract rule (DocumentUploaded): extraction starts before Submit. */
export const handler = withLambdaContext(async (event: EventBridgeEvent<string, EventDetail>): Promise<{ cached: boolean }> => {
  return preExtract(await getDeps(ENTRY_PORTS['events/pre-extract']), event.detail);
});
