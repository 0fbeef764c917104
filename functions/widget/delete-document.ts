import { deleteFromWidget } from '../../src/app/widget';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

export const handler = httpHandler(route.deleteWidgetDocument, (deps, req) => deleteFromWidget(deps, req.params.token, req.params.documentId));
