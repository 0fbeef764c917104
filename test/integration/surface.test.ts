import { defaultBody, useTestRuntime } from './harness';

const t = useTestRuntime();

describe('small surface defects', () => {
  it('answers 404 for asset names that are Object.prototype members', async () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      const res = await fetch(`${t.h.runtime.url}/widget/${name}`);
      expect([name, res.status]).toEqual([name, 404]);
      expect(await res.json()).toEqual({ message: 'Not found' });
    }
    expect((await fetch(`${t.h.runtime.url}/widget/widget.js`)).status).toBe(200);
  });

  it('serves the widget page at /v/<token>/ with a trailing slash with assets that load', async () => {
    const created = await t.api('POST', '/api/v1/default/verifications', defaultBody());
    for (const pageUrl of [created.body.data.url, `${created.body.data.url}/`]) {
      const page = await fetch(pageUrl);
      expect(page.status).toBe(200);
      const html = await page.text();
      const refs = [...html.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((m) => m[1] ?? '');
      expect(refs).toHaveLength(2);
      for (const ref of refs) {
        const asset = await fetch(new URL(ref, pageUrl));
        expect([pageUrl, ref, asset.status]).toEqual([pageUrl, ref, 200]);
      }
    }
    const console = await fetch(`${t.h.runtime.url}/console/`);
    const ref = /src="([^"]+\.js)"/.exec(await console.text())?.[1] ?? '';
    expect((await fetch(new URL(ref, `${t.h.runtime.url}/console/`))).status).toBe(200);
  });

  it('refuses a JSON body that is not an object (null, array, number) with 422, and changes nothing', async () => {
    const created = await t.api('POST', '/api/v1/default/verifications', defaultBody());
    const id = created.body.data.id;
    for (const raw of ['null', '[]', '1', '"x"']) {
      const res = await t.api('PATCH', `/api/v1/default/verifications/${id}`, undefined, { raw });
      expect([raw, res.status, res.body]).toEqual([raw, 422, { message: expect.any(String), errors: { body: ['The request body must be a JSON object'] } }]);
    }
    const after = await t.api('GET', `/api/v1/default/verifications/${id}`);
    expect(after.body.data.updated_at).toBe(created.body.data.updated_at);
    // An empty body is still an empty update.
    expect((await t.api('PATCH', `/api/v1/default/verifications/${id}`)).status).toBe(200);
  });
});
