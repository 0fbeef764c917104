import { getCaller } from '../../src/app/get-caller';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

/** GET /api/v1/me: the calling token's name, whether it is a named reviewer token, and its flows. */
export const handler = httpHandler(route.getCaller, (_deps, req) => getCaller(req.info));
