/** config.yaml as text: what a store hands core_config_* to edit (comments kept), in either mode. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SETTINGS_FILE } from '../../kernel/index.js';
import { PRIVATE_FILE, writeFileAtomic } from './atomic-write.js';

export async function readSettingsText(configPath: string): Promise<string> {
  try {
    return await readFile(join(configPath, SETTINGS_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}

export async function writeSettingsText(configPath: string, text: string): Promise<{ location: string }> {
  const file = join(configPath, SETTINGS_FILE);
  await writeFileAtomic(file, text, { mode: PRIVATE_FILE });
  return { location: file };
}
