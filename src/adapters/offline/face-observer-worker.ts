import { parentPort } from 'node:worker_threads';
import { describeFrames, meshRun, noStages } from './face-observer';
import type { ThreadReply, ThreadRequest } from './face-observer-thread';

/**
 * The observer thread's entry (face-observer-thread.ts): meshes runs of frames and describes frames
 * on its own models, one request at a time, answering each with its stages' CPU. An error is
 * answered by its name only: nothing of a frame leaves in it.
 */
const port = parentPort;
if (port) {
  let queue: Promise<unknown> = Promise.resolve();
  port.on('message', (request: ThreadRequest) => {
    queue = queue.then(async () => {
      const stages = noStages();
      let reply: ThreadReply;
      try {
        const result =
          request.op === 'mesh'
            ? { meshed: await meshRun(request.bytes, request.times, request.place, stages), stages }
            : { descriptors: await describeFrames(request.items, stages), stages };
        reply = { id: request.id, result };
      } catch (error) {
        reply = { id: request.id, error: (error as Error).name ?? 'Error' };
      }
      port.postMessage(reply);
    });
  });
}
