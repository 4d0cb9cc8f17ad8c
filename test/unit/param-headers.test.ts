/**
 * SEP-2243's `Mcp-Param-*` headers as Switchboard makes them for a 2026-07-28 upstream's
 * tools/call (plugins/upstreams/client/param-headers.ts): which properties a tool's schema
 * marks, and each call's header values, plain or Base64.
 */
import { expect } from 'chai';
import { headerValue, paramHeaders, paramHeadersOf } from '../../plugins/upstreams/client/param-headers.js';

describe('Mcp-Param headers for a modern upstream (SEP-2243)', () => {
  it('marks properties reached through `properties` alone, of a primitive type, named by a token', () => {
    const marked = paramHeadersOf({
      type: 'object',
      'x-mcp-header': 'Root',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        tenant: { type: 'object', properties: { id: { type: 'integer', 'x-mcp-header': 'Tenant-Id' } } },
        dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
        ratio: { type: 'number', 'x-mcp-header': 'Ratio' },
        bad: { type: 'string', 'x-mcp-header': 'has space' },
        list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } },
      },
    });
    expect(marked).to.deep.equal([
      { path: ['region'], header: 'Region' },
      { path: ['tenant', 'id'], header: 'Tenant-Id' },
      { path: ['dry'], header: 'Dry-Run' },
    ]);
  });

  it('makes one header per present primitive argument; absent, null and non-primitive ones get none', () => {
    const marked = paramHeadersOf({
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        tenant: { type: 'object', properties: { id: { type: 'integer', 'x-mcp-header': 'Tenant-Id' } } },
        dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
      },
    });
    expect(paramHeaders(marked, { region: 'eu-west', tenant: { id: 42 }, dry: false })).to.deep.equal({
      'mcp-param-region': 'eu-west',
      'mcp-param-tenant-id': '42',
      'mcp-param-dry-run': 'false',
    });
    expect(paramHeaders(marked, { region: null, tenant: 'x', dry: { no: 1 } })).to.deep.equal({});
    expect(paramHeaders(marked, { tenant: { id: 2 ** 60 } })).to.deep.equal({});
  });

  it('sends printable ASCII as it is, and Base64 in the sentinel for anything a header field would change or misread', () => {
    expect(headerValue('eu-west 1')).to.equal('eu-west 1');
    const b64 = (s: string) => `=?base64?${Buffer.from(s, 'utf8').toString('base64')}?=`;
    for (const value of ['Zürich', ' padded', 'trailing ', '', 'line\nbreak', '=?base64?abc?='])
      expect(headerValue(value), JSON.stringify(value)).to.equal(b64(value));
  });
});
