/**
 * What the plugin ships beside its code: the Cedar schema (schema.cedarschema) and the baseline
 * policies (baseline.cedar), read from the package (they are not TypeScript, so the build does
 * not copy them to dist/: an image must carry plugins/authorization-cedar/*.ceda* too). Both are
 * checked when read: a broken schema is a bug of ours and stops startup with its own words.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkParseSchema } from '@cedar-policy/cedar-wasm/nodejs';
import { packageRoot } from '../../kernel/paths.js';
import type { PolicySource } from './compile.js';

export interface ShippedPolicies {
  schema: string;
  schemaFile: string;
  baseline: PolicySource;
}

export function assetPath(name: string): string {
  return join(packageRoot(), 'plugins', 'authorization-cedar', name);
}

let shipped: ShippedPolicies | undefined;

function readAsset(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(
      `authorization-cedar: cannot read ${file}, which the plugin ships (an installation without the plugin's .cedar and .cedarschema files?): ${(err as Error).message}`,
    );
  }
}

export function shippedPolicies(): ShippedPolicies {
  if (shipped) return shipped;
  const schemaFile = assetPath('schema.cedarschema');
  const schema = readAsset(schemaFile);
  const parsed = checkParseSchema(schema);
  if (parsed.type === 'failure')
    throw new Error(`authorization-cedar: the shipped schema ${schemaFile} is invalid: ${parsed.errors.map((e) => e.message).join('; ')}`);
  const baselineFile = assetPath('baseline.cedar');
  shipped = { schema, schemaFile, baseline: { file: baselineFile, label: 'baseline.cedar', text: readAsset(baselineFile), operator: false } };
  return shipped;
}
