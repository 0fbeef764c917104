import { DeleteObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../src/adapters/dynamodb/keys';
import { LOCAL_BUCKET, LOCAL_TABLE } from '../../local/runtime';
import { b64, pdf, png } from '../fixtures/images';
import { defaultBody, useTestRuntime } from './harness';

/** The PDF report of a document that goes away while it is made: 404 (or the report), never 500. */
describe('report download races', () => {
  jest.setTimeout(240_000);
  const t = useTestRuntime();
  const action = { comment: 'ok', email: 'r@example.com' };

  async function approvedDocument(): Promise<{ v: string; d: string }> {
    const v = (await t.api('POST', '/api/v1/default/verifications', defaultBody())).body.data.id as string;
    const photo = await t.api('POST', '/api/v1/default/documents', { verification: v, document: { context_type: 'PHOTO_ID', type: 1, country: 'FRA', front_side_data: b64(png(8, 8, 1)) } });
    await t.api('POST', '/api/v1/default/documents', { verification: v, document: { context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'USA', front_side_data: b64(pdf()) } });
    expect((await t.api('PUT', `/api/v1/default/verifications/${v}/approve`, action)).status).toBe(200);
    return { v, d: photo.body.data.id as string };
  }

  it('answers 404 for an approved document whose stored image is gone', async () => {
    const { v } = await approvedDocument();
    const item = await t.h.runtime.doc.send(new GetCommand({ TableName: LOCAL_TABLE, Key: keys.document(v, 'PHOTO_ID') }));
    const { endpoints, credentials } = t.h.runtime;
    const s3 = new S3Client({ endpoint: endpoints.s3, region: 'us-east-1', forcePathStyle: true, credentials });
    await s3.send(new DeleteObjectCommand({ Bucket: LOCAL_BUCKET, Key: item.Item?.front.key }));
    const res = await t.api('GET', `/api/v1/default/documents/${item.Item?.id}/pdf`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Document not found' });
  });

  it('answers the report or 404 when the document is deleted while its report is made, never 500', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const { d } = await approvedDocument();
      const [report, deleted] = await Promise.all([t.api('GET', `/api/v1/default/documents/${d}/pdf`), t.api('DELETE', `/api/v1/default/documents/${d}`)]);
      expect(deleted.status).toBe(204);
      statuses.push(report.status);
    }
    expect(statuses.filter((s) => s !== 200 && s !== 404)).toEqual([]);
  });
});
