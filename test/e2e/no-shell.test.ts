import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { callTool, connectHttp, eventually, meta, startSwitchboard, TEST_SERVER, text } from '../support/harness.js';

describe('child processes start without a shell', () => {
  it('passes shell syntax in a definition to the program literally: nothing is expanded or run', async () => {
    const marker = join(process.env.TMPDIR ?? '/tmp', `switchboard-pwned-${process.pid}`);
    const hostile = `$(touch ${marker}); \`touch ${marker}\` | touch ${marker} && echo $HOME`;
    const sb = await startSwitchboard({});
    const client = await connectHttp(sb.url);
    try {
      await meta(client, 'call_tool', {
        name: 'core_mcpserver_create',
        arguments: { name: 'literal', type: 'stdio', command: ['node', TEST_SERVER, '--name', hostile], autoStart: true },
      });
      const pong = await eventually(
        () => callTool(client, 'x_literal_ping'),
        (r) => !r.isError,
        10_000,
      );
      // The fixture names itself after --name: the argument arrived byte for byte.
      expect(text(pong)).to.include(`pong from ${hostile}`);
      expect(existsSync(marker)).to.equal(false);
    } finally {
      await client.close();
      await sb.stop();
    }
  });
});
