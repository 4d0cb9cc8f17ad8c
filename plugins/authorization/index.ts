/**
 * authorization: the built-in roles authorizer (roles.ts), and the startup warning when OAuth
 * protection is on and nobody is an administrator. A policy plugin (authorization-cedar) that
 * provides the `authorizer` service first takes its place.
 */
import { definePlugin } from '../../kernel/plugin.js';
import { builtInRoles } from './roles.js';

export default definePlugin({
  name: 'authorization',
  description: 'Built-in roles: administrators (authorization.admins, or the local caller) and everyone else.',
  setup({ kernel, log }) {
    if (!kernel.services.find('authorizer')) kernel.services.provide('authorizer', builtInRoles);
    let warned = false;
    kernel.hooks.onConfigLoad.tap('authorization', (next) => {
      const s = next.settings;
      if (!s.aggregator.oauth.server.enabled || s.authorization.admins.length > 0) {
        warned = false;
        return;
      }
      if (warned) return;
      warned = true;
      log.warn(
        'OAuth protection is on and authorization.admins names nobody: admin operations (creating servers, service start/stop, config changes) are refused for everyone until it does',
      );
    });
  },
});
