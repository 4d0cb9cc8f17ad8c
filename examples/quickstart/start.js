#!/usr/bin/env node
// `npm start`: the quick start. Runs server-everything over streamable HTTP on port 3001
// (the remote upstream of this example), then Switchboard on this directory's configuration.
// Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const everything = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const remote = spawn(process.execPath, [everything, 'streamableHttp'], {
  env: { ...process.env, PORT: process.env.EVERYTHING_PORT ?? '3001' },
  stdio: ['ignore', 'ignore', 'inherit'],
});

// Give the remote server a moment to bind; Switchboard would retry anyway.
await new Promise((resolve) => setTimeout(resolve, 500));

// The flag of bin/switchboard.js's shebang (a smaller young generation: less RSS).
const switchboard = spawn(
  process.execPath,
  ['--max-semi-space-size=4', join(root, 'bin/switchboard.js'), 'serve', '--config-path', here, ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);

const stop = (signal) => {
  switchboard.kill(signal);
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
switchboard.on('exit', (code) => {
  remote.kill('SIGTERM');
  process.exit(code ?? 0);
});
