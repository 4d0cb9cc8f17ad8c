/** How Switchboard names itself in initialize, both to its clients and to the servers it connects to. */
import type { Implementation } from '#mcp-sdk/types.js';
import { packageVersion } from '../../paths.js';
import { SWITCHBOARD_ICONS } from './switchboard-icon.js';

/** The project's site: serverInfo's `websiteUrl` names the implementation, not the deployment (decisions.md "Icons"). */
export const WEBSITE_URL = 'https://switchboard.dev';

export const SERVER_INFO = {
  name: 'switchboard',
  version: packageVersion(),
  icons: [...SWITCHBOARD_ICONS],
  websiteUrl: WEBSITE_URL,
} as const satisfies Implementation;
