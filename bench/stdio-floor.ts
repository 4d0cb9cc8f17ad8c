/**
 * The stdio floor: raw node:http in, one child MCP server over stdio out, newline-delimited
 * JSON passed through. The only work is what any gateway must do to share one stdio child
 * among clients: give each request an id of its own on the way in and restore the
 * client's on the way out. `node stdio-floor.js -- COMMAND ARGS...` prints `listening PORT`.
 */
import { spawn } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';

const sep = process.argv.indexOf('--');
const [command, ...args] = process.argv.slice(sep + 1);
const child = spawn(command!, args, { stdio: ['pipe', 'pipe', 'inherit'] });
const waiting = new Map<number, { res: ServerResponse; id: unknown }>();
let nextId = 1;

let pending = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk: string) => {
  pending += chunk;
  let nl: number;
  while ((nl = pending.indexOf('\n')) >= 0) {
    const line = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    const message = JSON.parse(line) as { id?: number };
    const w = message.id !== undefined ? waiting.get(message.id) : undefined;
    if (!w) continue; // notifications and server requests: a floor has no one to give them to
    waiting.delete(message.id!);
    const body = JSON.stringify({ ...message, id: w.id });
    w.res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  }
});

const server = createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(req.method === 'DELETE' ? 200 : 405).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown };
    if (message.id === undefined) {
      res.writeHead(202).end();
      child.stdin.write(`${JSON.stringify(message)}\n`);
      return;
    }
    const id = nextId++;
    waiting.set(id, { res, id: message.id });
    child.stdin.write(`${JSON.stringify({ ...message, id })}\n`);
  });
});

server.listen(0, '127.0.0.1', () => {
  const a = server.address();
  process.stdout.write(`listening ${typeof a === 'object' && a ? a.port : 0}\n`);
});
process.on('SIGTERM', () => {
  child.kill('SIGTERM');
  process.exit(0);
});
