/** upstreams: the registered MCP servers, their connections and their tools in the catalogue. */
import { definePlugin } from '../../kernel/plugin.js';
import { Upstreams } from './registry.js';

export default definePlugin({
  name: 'upstreams',
  description: 'Connects to the registered MCP servers and puts their tools, resources and prompts in the catalogue.',
  setup({ kernel, log }) {
    const upstreams = new Upstreams(kernel, log);
    let booted = false;
    kernel.services.provide('upstreams', upstreams);
    kernel.hooks.onConfigLoad.tapPromise('upstreams', (next) => upstreams.reconcile(next, !booted));
    return {
      start() {
        booted = true;
      },
      stop: () => upstreams.stopAll(),
    };
  },
});
