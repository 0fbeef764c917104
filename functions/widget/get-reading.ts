import { getWidgetReading } from '../../src/app/widget-reading';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

export const handler = httpHandler(route.getWidgetReading, (deps, req) => getWidgetReading(deps, req.params.token, req.params.documentId));
