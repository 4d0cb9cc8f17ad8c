/** How Switchboard names itself in initialize, both to its clients and to the servers it connects to. */
import { packageVersion } from '../../paths.js';

export const SERVER_INFO = { name: 'switchboard', version: packageVersion() };
