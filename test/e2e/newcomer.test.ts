/**
 * From nothing to a client listing tools, as a newcomer does it: pack the repository, install
 * the tarball globally (into a prefix of its own, once: test/support/packed-install.ts), then `switchboard init`,
 * `switchboard connect claude-code --print` and `switchboard serve`, and an MCP client lists
 * the tools. The container image's command is run the same way outside a container (no engine
 * here): its ENTRYPOINT, CMD and ENV from the Dockerfile, in the installed package, and its
 * HEALTHCHECK against it. `npm start`'s build step skips the emit when nothing changed.
 */
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, symlink, utimes, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectHttp, meta, ROOT, startSwitchboard } from '../support/harness.js';
import { installedEnv, packedInstall } from '../support/packed-install.js';

/** The instructions of the Dockerfile's last stage, exec-form JSON arrays parsed. */
function finalStage(dockerfile: string): { env: Record<string, string>; entrypoint: string[]; cmd: string[]; healthcheck: string[]; workdir: string } {
  const lines = dockerfile.replace(/\\\n\s*/g, ' ').split('\n');
  const last = lines
    .map((l, i) => (/^FROM\s/.test(l) ? i : -1))
    .filter((i) => i >= 0)
    .pop()!;
  const stage = { env: {} as Record<string, string>, entrypoint: [] as string[], cmd: [] as string[], healthcheck: [] as string[], workdir: '/' };
  for (const line of lines.slice(last)) {
    const [, word, rest] = /^(\w+)\s+(.*)$/.exec(line.trim()) ?? [];
    if (word === 'ENV') for (const [, k, v] of rest!.matchAll(/(\w+)=(\S+)/g)) stage.env[k!] = v!;
    if (word === 'ENTRYPOINT') stage.entrypoint = JSON.parse(rest!) as string[];
    if (word === 'CMD') stage.cmd = JSON.parse(rest!) as string[];
    if (word === 'WORKDIR') stage.workdir = rest!;
    if (word === 'HEALTHCHECK') stage.healthcheck = JSON.parse(/\bCMD\s+(\[.*\])$/.exec(rest!)![1]!) as string[];
  }
  return stage;
}

describe('newcomer: from a packed tarball to a client listing tools', function () {
  // `npm i -g` of the tarball resolves Switchboard's dependencies (npm's cache when warm).
  this.timeout(300_000);
  let tmp: string;
  let prefix: string;
  let installed: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'sb-newcomer-'));
    // Packed here, installed globally into a prefix (the same tarball's install is shared: packed-install.ts).
    const install = await packedInstall('global');
    ({ dir: prefix, installed } = install);
    // The installed command first on PATH, and a HOME of its own: nothing reads the real one.
    env = installedEnv(install, join(tmp, 'home'));
    await mkdir(env.HOME!);
  });

  after(async () => {
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('the package holds what runs: the command, compiled code, schemas, the Cedar files; not tests or sources', () => {
    expect(existsSync(join(prefix, 'bin', 'switchboard'))).to.equal(true);
    expect(existsSync(join(installed, 'dist', 'app', 'cli', 'main.js'))).to.equal(true);
    expect(readdirSync(join(installed, 'schemas'))).to.include('config.schema.json');
    expect(readdirSync(join(installed, 'plugins', 'authorization-cedar')).some((f) => f.endsWith('.cedarschema'))).to.equal(true);
    expect(existsSync(join(installed, 'dist', 'test'))).to.equal(false);
    expect(existsSync(join(installed, 'kernel'))).to.equal(false);
  });

  it('switchboard init, connect claude-code --print, serve: a client lists the tools', async () => {
    const config = join(tmp, 'config');
    const sh = (...args: string[]) => spawnSync('switchboard', args, { encoding: 'utf8', env, timeout: 60_000 });
    const init = sh('init', '--config-path', config);
    expect(init.status, init.stderr).to.equal(0);
    expect(init.stdout).to.include(`Created the Switchboard configuration in ${config}`);

    const connect = sh('connect', 'claude-code', '--print', '--config-path', config);
    expect(connect.status, connect.stderr).to.equal(0);
    expect(JSON.parse(connect.stdout)).to.deep.equal({ mcpServers: { switchboard: { type: 'http', url: 'http://127.0.0.1:8090/mcp' } } });

    const sb = await startSwitchboard({}, { configDir: config, cli: join(installed, 'bin', 'switchboard.js'), env: { HOME: env.HOME! } });
    try {
      expect(await sb.waitForLog(/ready: .*/)).to.include(`config ${config}`);
      const client = await connectHttp(sb.url);
      try {
        const listed = await meta<{ tools: { name: string }[] }>(client, 'list_tools', { limit: 500 });
        expect(listed.tools.map((t) => t.name)).to.include('core_service_status');
      } finally {
        await client.close();
      }
    } finally {
      await sb.stop();
    }
  });

  it("the image's command, run in the installed package, serves on every interface and its health check passes", async () => {
    const image = finalStage(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
    expect(image.env).to.deep.equal({ NODE_ENV: 'production', SWITCHBOARD_HOST: '0.0.0.0' });
    expect(image.entrypoint).to.deep.equal(['node', '--max-semi-space-size=4', 'bin/switchboard.js']);
    expect(image.cmd).to.deep.equal(['serve', '--config-path', '/var/lib/switchboard', '--allow-unauthenticated-network']);
    expect(image.healthcheck[0]).to.equal('node');

    // The same command, in the installed package as in WORKDIR, with two substitutions a test
    // needs: a temp directory for the mounted configuration, and SWITCHBOARD_PORT=0 for 8090.
    const config = join(tmp, 'image-config');
    const command = [...image.entrypoint, ...image.cmd].map((a) => (a === '/var/lib/switchboard' ? config : a));
    const proc = spawn(command[0]!, command.slice(1), {
      cwd: installed,
      env: { ...env, ...image.env, SWITCHBOARD_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    const exited = new Promise<number | null>((resolve) => proc.once('exit', resolve));
    const ready = new Promise<number>((resolve, reject) => {
      const onData = (chunk: Buffer): void => {
        log += chunk.toString();
        const m = /listening on http:\/\/0\.0\.0\.0:(\d+)\/mcp/.exec(log);
        if (m && /\bready: /.test(log)) resolve(Number(m[1]));
      };
      proc.stdout.on('data', onData);
      proc.stderr.on('data', onData);
      void exited.then((code) => reject(new Error(`the image's command exited (${code}):\n${log}`)));
    });
    let port: number;
    try {
      port = await ready;
      expect(port, 'SWITCHBOARD_PORT=0 picked a free port').to.not.equal(8090);
      expect(log).to.include('THE MCP ENDPOINT HAS NO AUTHENTICATION');
      const health = spawnSync(image.healthcheck[0]!, image.healthcheck.slice(1), {
        cwd: installed,
        env: { ...env, SWITCHBOARD_PORT: String(port) },
        timeout: 30_000,
      });
      expect(health.status, String(health.stderr)).to.equal(0);
      const client = await connectHttp(`http://127.0.0.1:${port}/mcp`);
      expect((await meta<{ tools: unknown[] }>(client, 'list_tools')).tools).to.not.be.empty;
      await client.close();
    } finally {
      proc.kill('SIGTERM');
      await exited;
    }
    // Nothing listening there any more: the check fails, so it is a check.
    const after = spawnSync(image.healthcheck[0]!, image.healthcheck.slice(1), { env: { ...env, SWITCHBOARD_PORT: String(port) }, timeout: 30_000 });
    expect(after.status).to.equal(1);
  });

  it('the image without --allow-unauthenticated-network refuses, naming SWITCHBOARD_HOST', () => {
    const r = spawnSync(process.execPath, [join(installed, 'bin', 'switchboard.js'), 'serve', '--config-path', join(tmp, 'refused'), '--port', '0'], {
      encoding: 'utf8',
      env: { ...env, SWITCHBOARD_HOST: '0.0.0.0' },
      timeout: 60_000,
    });
    expect(r.status).to.equal(1);
    expect(r.stderr).to.include('would listen on 0.0.0.0 (SWITCHBOARD_HOST in the environment)').and.include('set SWITCHBOARD_HOST=127.0.0.1');
  });

  it("npm start's build step emits only when a source is newer than its output", async () => {
    // A small project with the repository's scripts, so that the check cannot rebuild dist/ under the suite.
    const project = join(tmp, 'project');
    await mkdir(join(project, 'scripts'), { recursive: true });
    await mkdir(join(project, 'src'));
    for (const script of ['build-if-stale.js', 'emit.js']) await copyFile(join(ROOT, 'scripts', script), join(project, 'scripts', script));
    await symlink(join(ROOT, 'node_modules'), join(project, 'node_modules'));
    await writeFile(join(project, 'package.json'), '{"type": "module"}');
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'NodeNext', rootDir: '.', outDir: 'dist' }, include: ['src'] }),
    );
    await writeFile(join(project, 'src', 'a.ts'), 'export const a: number = 1;\n');
    const build = () => spawnSync(process.execPath, [join(project, 'scripts', 'build-if-stale.js')], { encoding: 'utf8', timeout: 120_000 });

    const first = build();
    expect(first.status, first.stderr + first.stdout).to.equal(0);
    expect(first.stderr).to.include('dist/src/a.js is missing; emitting');
    expect(await readFile(join(project, 'dist', 'src', 'a.js'), 'utf8')).to.match(/const a = 1;[^]*export \{\s*a\s*\}/);
    const second = build();
    expect(second.stderr).to.match(/dist\/ is up to date \(checked in \d+ ms\)/);
    // An edit since the build (an output older than its source) brings the emit back. Older than the
    // source's own time, not than now: on a loaded machine the builds above can take a minute.
    const earlier = new Date((await stat(join(project, 'src', 'a.ts'))).mtimeMs - 60_000);
    await utimes(join(project, 'dist', 'src', 'a.js'), earlier, earlier);
    const third = build();
    expect(third.stderr).to.include('src/a.ts changed; emitting');
    expect(build().stderr).to.include('up to date');
  });
});
