import { uploadFromWidget } from '../../src/app/widget';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

export const handler = httpHandler(route.uploadWidgetDocument, (deps, req) => uploadFromWidget(deps, req.params.token, req.body.document));
