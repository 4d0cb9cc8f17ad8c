/**
 * The sprig v3 function library as Switchboard offers it, group by group (docs/gotpl.md
 * lists them). Not offered: env, expandenv (a workflow author could read Switchboard's
 * environment, its secrets) and getHostByName (could probe the network); the crypto
 * generators; sprig's map-returning split (Switchboard's split returns a list) and its
 * slice (Go's builtin slice stays).
 */
import { CONVERSION } from './conversion.js';
import { DATES } from './dates.js';
import { DEFAULTS } from './defaults.js';
import type { FunctionGroup } from './define.js';
import { DICTS } from './dicts.js';
import { ENCODING } from './encoding.js';
import { LISTS } from './lists.js';
import { MATH } from './math.js';
import { PATHS } from './paths.js';
import { RANDOM } from './random.js';
import { REGEX } from './regex.js';
import { SEMVER_FUNCTIONS } from './semver.js';
import { STRINGS } from './strings.js';
import { TYPES } from './types.js';
import { URLS } from './urls.js';
import { WORDS } from './words.js';

export type { SprigFunction } from './define.js';

export const SPRIG: FunctionGroup = {
  ...STRINGS,
  ...WORDS,
  ...MATH,
  ...CONVERSION,
  ...DEFAULTS,
  ...LISTS,
  ...DICTS,
  ...TYPES,
  ...REGEX,
  ...ENCODING,
  ...PATHS,
  ...SEMVER_FUNCTIONS,
  ...URLS,
  ...DATES,
  ...RANDOM,
};
