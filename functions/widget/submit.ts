import { submitFromWidget } from '../../src/app/widget';
import { httpHandler } from '../../src/http/handler';

export const handler = httpHandler({ operation: 'submitWidget', status: 200, run: (deps, req) => submitFromWidget(deps, req.info, req.params.token ?? '') });
