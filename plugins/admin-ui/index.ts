/**
 * admin-ui: server-rendered pages for operators on their own listener
 * (aggregator.admin.bindAddress:port, 127.0.0.1:9999 by default), opened, moved and closed
 * as config.yaml says while running (listener.ts). It has no authentication, so it stays on
 * loopback unless allowNonLoopback says otherwise (checked by the kernel at startup and on
 * every reload) and logs loudly when it does not. Forms post to same-origin actions only
 * (app.ts).
 */
import { definePlugin } from '../../kernel/index.js';
import { adminApp } from './app.js';
import { AdminListener } from './listener.js';

export default definePlugin({
  name: 'admin-ui',
  description: 'Admin pages: sessions, servers, workflow runs, settings (aggregator.admin.enabled, applied live).',
  provides: [],
  claims: ['admin'],
  setup({ kernel, log }) {
    kernel.surfaces.claim('admin');
    let handler: ReturnType<typeof adminApp> | undefined;
    const listener: AdminListener = new AdminListener(
      () => kernel.settings().aggregator,
      () => (handler ??= adminApp(kernel, log, () => listener.bindAddress)),
      log,
    );
    let started = false;
    // A config.yaml edit (or core_config_reload) reaches the listener: opened, moved, closed or retimed.
    kernel.hooks.onConfigLoad.tap('admin-ui', () => {
      if (!started) return;
      listener.retime();
      listener
        .reconcile()
        .catch((err: unknown) => log.error(`${(err as Error).message}; the admin UI stays closed until config.yaml changes aggregator.admin`));
    });
    return {
      async start() {
        started = true;
        await listener.reconcile();
      },
      async stop() {
        started = false;
        await listener.close();
      },
    };
  },
});
