/**
 * Hardening (issue 35), icons that lead a client somewhere private: a hostile upstream puts on
 * its tool icons at the cloud's metadata service by name, at 127.0.0.1 written as an IPv6
 * form that carries it (6to4, IPv4-translated, NAT64, IPv4-compatible, Teredo), and at names
 * that spell out a private address (nip.io, sslip.io). The client that shows the icons would
 * fetch each from its own network; none of them reaches it, and each drop says why.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Icon } from '@modelcontextprotocol/sdk/types.js';
import { connectHttp, eventually, meta, ROOT, startSwitchboard, stdioServer, type Running } from '../support/harness.js';

const LURE = join(ROOT, 'dist/test/fixtures/icon-lure-server.js');
const KEPT = 'https://icons.example.com/kept.png';

/** Each icon the upstream sends, and the reason its drop is logged with. */
const LURES: readonly [src: string, reason: RegExp][] = [
  ['https://metadata.google.internal/computeMetadata/v1/', /'metadata\.google\.internal' is under \.internal, a private-use suffix/],
  ['https://metadata/computeMetadata/v1/', /'metadata' is a single-label name/],
  ['https://instance-data.ec2.internal/latest/meta-data/', /under \.internal/],
  ['https://metadata.goog/computeMetadata/v1/', /'metadata\.goog' names a cloud metadata service/],
  ['https://[2002:7f00:1::]/a.png', /2002:7f00:1:: is not a public address/],
  ['https://[::ffff:0:127.0.0.1]/a.png', /::ffff:0:7f00:1 is not a public address/],
  ['https://[64:ff9b::a9fe:a9fe]/latest/meta-data/', /64:ff9b::a9fe:a9fe is not a public address/],
  ['https://[::10.0.0.1]/a.png', /::a00:1 is not a public address/],
  ['https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/a.png', /2001:0:4136:e378:8000:63bf:80ff:fffe is not a public address/],
  ['https://10.0.0.1.nip.io/a.png', /'10\.0\.0\.1\.nip\.io' spells out 10\.0\.0\.1, a private address/],
  ['https://8.8.8.8.127.0.0.1.nip.io/a.png', /spells out 127\.0\.0\.1, a loopback address/],
  ['https://app-192-168-1-1.sslip.io/a.png', /spells out 192\.168\.1\.1, a private address/],
  ['https://7f000001.nip.io/a.png', /spells out 127\.0\.0\.1, a loopback address/],
  ['https://--1.sslip.io/a.png', /spells out ::1, a loopback address/],
  ['https://a.localtest.me/a.png', /under localtest\.me, whose every name is the client's own machine/],
];

describe('security: icons never point a client at a private place', function () {
  this.timeout(60_000);
  let sb: Running;
  let client: Client;

  before(async () => {
    // Four icons are kept per item at most: the public one goes last, so every lure before it is judged.
    const icons = [...LURES.map(([src]) => ({ src })), { src: KEPT }];
    sb = await startSwitchboard(
      { 'mcpservers/lure.yaml': stdioServer('lure', LURE, [], `env:\n  ICONS: ${JSON.stringify(JSON.stringify(icons))}\n`) },
      { env: { SWITCHBOARD_LOG_LEVEL: 'debug' } },
    );
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  it('describe_tool and tools/list hand the client the public icon only', async () => {
    const described = await eventually(
      () => meta<{ icons?: Icon[] }>(client, 'describe_tool', { name: 'x_lure_lure' }).catch((): { icons?: Icon[] } => ({})),
      (d) => d.icons !== undefined,
      15_000,
    );
    expect(described.icons).to.deep.equal([{ src: KEPT }]);
    const listed = await meta<{ tools: { name: string; icons?: Icon[] }[] }>(client, 'list_tools', { limit: 200 });
    expect(listed.tools.find((t) => t.name === 'x_lure_lure')?.icons).to.deep.equal([{ src: KEPT }]);
  });

  for (const [i, [src, reason]] of LURES.entries())
    it(`drops ${src}, saying why`, async () => {
      const line = await sb.waitForLog(new RegExp(`dropping icon ${i} of tool 'lure': .*`));
      expect(line).to.match(reason);
    });
});
