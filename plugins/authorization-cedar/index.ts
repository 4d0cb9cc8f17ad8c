/** authorization-cedar: placeholder until the Cedar authorizer lands (being written). */
import { definePlugin } from '../../kernel/plugin.js';

export default definePlugin({
  name: 'authorization-cedar',
  setup() {},
});
