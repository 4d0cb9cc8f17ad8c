/**
 * The floor: a bare pass-through HTTP proxy on raw node:http. It costs one extra hop and
 * nothing else, which is the least any gateway can cost. `node floor-proxy.js TARGET_PORT`.
 */
import { createServer, request } from 'node:http';

const target = Number(process.argv[2]);
const agent = new (await import('node:http')).Agent({ keepAlive: true, maxSockets: 256 });

const server = createServer((req, res) => {
  const upstream = request({ host: '127.0.0.1', port: target, path: req.url, method: req.method, headers: req.headers, agent }, (up) => {
    res.writeHead(up.statusCode ?? 502, up.headers);
    up.pipe(res);
  });
  upstream.on('error', () => res.writeHead(502).end());
  req.pipe(upstream);
});

// Keep-alive as long as Switchboard's own (65 s), past any pause between rounds: with Node's
// default of 5 s, a client that sent on a socket the proxy was closing at that moment failed
// the whole run ("fetch failed: other side closed", once in a Node 22 run of call-tool-modern).
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const a = server.address();
  process.stdout.write(`listening ${typeof a === 'object' && a ? a.port : 0}\n`);
});
