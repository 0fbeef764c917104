import { deleteFromWidget } from '../../src/app/widget';
import { httpHandler } from '../../src/http/handler';

export const handler = httpHandler({
  operation: 'deleteWidgetDocument',
  status: 204,
  run: (deps, req) => deleteFromWidget(deps, req.params.token ?? '', req.params.documentId ?? ''),
});
