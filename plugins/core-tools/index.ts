/** core-tools: placeholder while being written. */
import { definePlugin } from '../../kernel/plugin.js';
export default definePlugin({ name: 'core-tools', setup() {} });
