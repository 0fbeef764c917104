import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { verifyPresigned } from '../../../local/presign-gate';

const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const client = new S3Client({
  region: 'us-east-1',
  endpoint: 'http://127.0.0.1:3000/s3',
  forcePathStyle: true,
  credentials,
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
});

async function link(key = 'documents/ver_1/doc_1/img-front', expiresIn = 1800): Promise<URL> {
  return new URL(await getSignedUrl(client, new GetObjectCommand({ Bucket: 'images', Key: key }), { expiresIn }));
}

const check = (url: URL, now?: number) => verifyPresigned('GET', url, url.host, credentials, 'us-east-1', now);

describe('presigned link gate', () => {
  it('accepts a link signed by the SDK', async () => {
    expect((await check(await link())).ok).toBe(true);
  });

  it('refuses a changed key, a changed lifetime, another method and another host', async () => {
    const url = await link();
    const otherKey = new URL(url);
    otherKey.pathname = otherKey.pathname.replace('front', 'back');
    expect(await check(otherKey)).toMatchObject({ ok: false, status: 403, code: 'SignatureDoesNotMatch' });
    const longer = new URL(url);
    longer.searchParams.set('X-Amz-Expires', '3600');
    expect((await check(longer)).code).toBe('SignatureDoesNotMatch');
    expect((await verifyPresigned('HEAD', url, url.host, credentials, 'us-east-1')).code).toBe('SignatureDoesNotMatch');
    expect((await verifyPresigned('GET', url, 'localhost:3000', credentials, 'us-east-1')).code).toBe('SignatureDoesNotMatch');
  });

  it('refuses an expired link and one signed with other credentials', async () => {
    const url = await link(undefined, 60);
    expect(await check(url, Date.now() + 61_000)).toMatchObject({ ok: false, status: 403, message: 'Request has expired' });
    const other = new URL(url);
    other.searchParams.set('X-Amz-Credential', other.searchParams.get('X-Amz-Credential')!.replace('S3RVER', 'OTHER'));
    expect((await check(other)).code).toBe('InvalidAccessKeyId');
  });

  it('refuses a link without query authentication', async () => {
    expect(await check(new URL('http://127.0.0.1:3000/s3/images/documents/x'))).toMatchObject({ ok: false, status: 403 });
  });
});
