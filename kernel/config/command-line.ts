/**
 * A stdio server's argv. `command` is written either as the whole command line (an array,
 * this project's original form) or as the executable alone with `args` beside it (the form
 * IDE and desktop-client configurations use); both mean `[...command, ...args]`.
 */
import type { McpServerDefinition } from './settings.js';

export function commandLine(def: Pick<McpServerDefinition, 'command' | 'args'>): string[] {
  const command = def.command === undefined ? [] : typeof def.command === 'string' ? [def.command] : def.command;
  return [...command, ...(def.args ?? [])];
}
