/**
 * Ports that a test names before anything listens on them (a balancer's public URL written
 * into its replicas' configuration, a server that takes its port from the environment), safe
 * while other test files run in parallel workers.
 *
 * Why not "listen on port 0, read the port, close": the kernel then holds nothing, and hands
 * that same port to the next `listen(0)` or outgoing connection of any process. In the parallel
 * pass a balancer's port, chosen seconds before HAProxy bound it, was meanwhile taken by
 * another file's etcd, whose "404 page not found" answered an OAuth registration. So ports
 * are taken below the kernel's ephemeral range (which `listen(0)` and outgoing connections
 * never use), and each is reserved across processes with a file created exclusively, so that
 * no two workers are handed the same one while either may still use it.
 */
import { linkSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { randomInt } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RESERVATIONS = join(tmpdir(), 'switchboard-test-ports');
/** Longer than any test file runs: a reservation older than this is free again. */
const HELD_MS = 30 * 60_000;
const LOWEST = 10_000;
const ATTEMPTS = 500;

/** The ports outside the kernel's ephemeral range that tests may take, [from, to). */
function range(): [number, number] {
  let ephemeralFrom = 49_152; // IANA's dynamic range, where /proc does not say
  try {
    ephemeralFrom = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    // Not Linux.
  }
  if (!Number.isInteger(ephemeralFrom) || ephemeralFrom - LOWEST < 1_000) {
    throw new Error(`the ephemeral port range starts at ${ephemeralFrom}: too low to leave test ports below it`);
  }
  return [LOWEST, ephemeralFrom];
}

/** Reserves `port` for this process unless another holds it; a stale reservation is taken over. */
function reserve(port: number): boolean {
  const file = join(RESERVATIONS, String(port));
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  try {
    return Date.now() - statSync(file).mtimeMs >= HELD_MS && takeOver(file);
  } catch {
    return false; // another process took it first
  }
}

/**
 * Takes a stale reservation over. Not unlink-then-create: two processes that both saw it stale
 * would each remove what the other had just created, and both hold the port (a port handed
 * out twice in a clean-clone run, with 15,000 stale reservations left by earlier runs). The stale file is moved aside
 * first, which only one process can do; one found fresh once moved was renewed meanwhile by
 * the process that took it over, and is put back.
 */
function takeOver(file: string): boolean {
  const aside = `${file}.${process.pid}-${randomInt(1_000_000_000)}`;
  renameSync(file, aside);
  const stale = Date.now() - statSync(aside).mtimeMs >= HELD_MS;
  if (!stale) {
    try {
      linkSync(aside, file);
    } catch {
      // Taken afresh meanwhile: the port is someone's either way.
    }
  }
  unlinkSync(aside);
  if (!stale) return false;
  writeFileSync(file, String(process.pid), { flag: 'wx' });
  return true;
}

/** Whether something (outside the tests, or a reservation's owner) listens on `port` now. */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** The range, read once a process; the reservations' directory made with it. */
let ports: [number, number] | undefined;
function testPorts(): [number, number] {
  if (ports) return ports;
  mkdirSync(RESERVATIONS, { recursive: true });
  return (ports = range());
}

/** A port nothing listens on, that no other test process is handed while this run lasts. */
export async function freePort(): Promise<number> {
  const [from, to] = testPorts();
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = randomInt(from, to);
    if (reserve(port) && (await bindable(port))) return port;
  }
  throw new Error(`no free test port in ${from}-${to - 1} after ${ATTEMPTS} attempts (reservations in ${RESERVATIONS})`);
}
