import { uploadFromWidget } from '../../src/app/widget';
import { httpHandler } from '../../src/http/handler';
import { WidgetDocumentBody } from '../../src/http/schemas';

export const handler = httpHandler({
  operation: 'uploadWidgetDocument',
  body: WidgetDocumentBody,
  status: 201,
  run: (deps, req) => uploadFromWidget(deps, req.params.token ?? '', req.body.document),
});
