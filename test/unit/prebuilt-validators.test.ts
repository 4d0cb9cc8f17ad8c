/**
 * The schema validators the build compiles ahead (kernel/config/prebuilt-validators.ts): they
 * answer exactly as the validators ajv compiles at run time (the verdict, every error, the
 * defaults filled in), and a stale or missing one is never used.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import type { ErrorObject } from 'ajv';
import { parse } from 'yaml';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { writePrebuiltOptionValidators, writePrebuiltValidators } from '../../kernel/config/prebuild.js';
import { META_SCHEMA_ID, META_VALIDATOR_NAME, metaSchemaFingerprint } from '../../kernel/config/meta-schema-check.js';
import {
  loadPrebuilt,
  optionsFingerprint,
  optionsValidatorName,
  PREBUILT_DIR,
  prebuiltFile,
  validatorFingerprint,
} from '../../kernel/config/prebuilt-validators.js';
import { BUILT_IN_PLUGINS } from '../../app/built-in-plugins.js';
import { createAjv, SCHEMA_NAMES, schemaText, VALIDATOR_OPTIONS, type SchemaName } from '../../kernel/config/validate.js';
import { ROOT } from '../support/harness.js';

async function yamlFiles(dir: string): Promise<unknown[]> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.yaml'));
  return Promise.all(names.map(async (n) => parse(await readFile(join(dir, n), 'utf8')) as unknown));
}

/** Documents of each kind, valid and not: the quick start's files and mistakes people make. */
async function samples(): Promise<Record<SchemaName, unknown[]>> {
  const quickstart = join(ROOT, 'examples/quickstart');
  return {
    config: [
      parse(await readFile(join(quickstart, 'config.yaml'), 'utf8')),
      {},
      { aggregator: { prot: 8090 } },
      { aggregator: { port: 'eighty' } },
      { aggregator: { admin: { enabled: true, port: 70000 } }, plugins: { 'meta-tools': false } },
      { aggregator: { oauth: { server: { enabled: true, baseUrl: 'ftp://x' } } } },
      [],
    ],
    mcpserver: [
      ...(await yamlFiles(join(quickstart, 'mcpservers'))),
      { name: 'a' },
      { name: 'a', type: 'stdio', command: 'node' },
      { name: 'a', type: 'streamable-http', url: 42, headers: { x: 1 } },
      'not an object',
    ],
    workflow: [
      ...(await yamlFiles(join(quickstart, 'workflows'))),
      {},
      { apiVersion: 'switchboard.dev/v1alpha1', kind: 'Workflow', metadata: { name: 'w' }, spec: { steps: [{ id: 's', agrs: {} }] } },
    ],
  };
}

/** An error as a caller reads it (the schema objects it points at compared by content). */
function plain(errors: readonly ErrorObject[] | null | undefined): unknown {
  return JSON.parse(JSON.stringify(errors ?? null)) as unknown;
}

/**
 * A prebuilt validator requires ajv's runtime modules, found as the build's own are: through the
 * node_modules above it. So the test's files go under the project's dist/, never the system's
 * temporary folder, where nothing resolves and every validator would read as missing.
 */
const scratch = (name: string) => mkdtemp(join(ROOT, 'dist', `.${name}-`));

describe('prebuilt schema validators', function () {
  this.timeout(60_000);
  let dir: string;
  before(async () => {
    dir = await scratch('prebuilt-test');
    writePrebuiltValidators(dir);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('answer every document as the run-time compiled validator does: verdict, errors and defaults', async () => {
    const docs = await samples();
    for (const name of SCHEMA_NAMES) {
      const prebuilt = loadPrebuilt(dir, name, validatorFingerprint(schemaText(name), VALIDATOR_OPTIONS));
      expect(prebuilt, `${name} prebuilt`).to.be.a('function');
      const compiled = createAjv(VALIDATOR_OPTIONS).compile(JSON.parse(schemaText(name)) as object);
      const verdicts = new Set<boolean>();
      for (const doc of docs[name]) {
        const a = structuredClone(doc);
        const b = structuredClone(doc);
        const verdict = prebuilt!(a);
        expect(verdict, `${name}: ${JSON.stringify(doc)}`).to.equal(compiled(b));
        verdicts.add(verdict);
        expect(plain(prebuilt!.errors), `${name} errors: ${JSON.stringify(doc)}`).to.deep.equal(plain(compiled.errors));
        expect(a, `${name} defaults: ${JSON.stringify(doc)}`).to.deep.equal(b);
      }
      expect([...verdicts].sort(), `${name}: valid and invalid documents both compared`).to.deep.equal([false, true]);
    }
  });

  it('are ignored when the schema changed since the build, or when the build wrote none', async () => {
    const edited = schemaText('config').replace('"default": 8090', '"default": 8091');
    expect(edited).to.not.equal(schemaText('config'));
    expect(loadPrebuilt(dir, 'config', validatorFingerprint(edited, VALIDATOR_OPTIONS))).to.equal(undefined);
    expect(loadPrebuilt(dir, 'config', validatorFingerprint(schemaText('config'), { verbose: false }))).to.equal(undefined);
    expect(loadPrebuilt(join(dir, 'nowhere'), 'config', validatorFingerprint(schemaText('config'), VALIDATOR_OPTIONS))).to.equal(undefined);
    const broken = await scratch('prebuilt-test-broken');
    try {
      await writeFile(prebuiltFile(broken, 'config'), 'module.exports = (');
      expect(loadPrebuilt(broken, 'config', validatorFingerprint(schemaText('config'), VALIDATOR_OPTIONS))).to.equal(undefined);
    } finally {
      await rm(broken, { recursive: true, force: true });
    }
  });

  it("answer a built-in plugin's options as its compiled schema does, and only for the schema they were built from", async () => {
    const plugins: { name: string; optionsSchema: Record<string, unknown> }[] = [];
    for (const b of BUILT_IN_PLUGINS) {
      const plugin = (await b.load()).default;
      if (plugin.optionsSchema) plugins.push({ name: plugin.name, optionsSchema: plugin.optionsSchema });
    }
    expect(plugins.length, 'built-in plugins with options').to.be.greaterThan(3);
    writePrebuiltOptionValidators(plugins, dir);
    for (const { name, optionsSchema } of plugins) {
      const prebuilt = loadPrebuilt(dir, optionsValidatorName(name), optionsFingerprint(optionsSchema));
      expect(prebuilt, `${name} prebuilt`).to.be.a('function');
      const compiled = createAjv().compile(optionsSchema);
      for (const options of [{}, { unknownOption: 1 }, { enabled: 'yes' }]) {
        const a = structuredClone(options);
        const b = structuredClone(options);
        expect(prebuilt!(a), `${name}: ${JSON.stringify(options)}`).to.equal(compiled(b));
        expect(plain(prebuilt!.errors), `${name} errors: ${JSON.stringify(options)}`).to.deep.equal(plain(compiled.errors));
        expect(a, `${name} defaults: ${JSON.stringify(options)}`).to.deep.equal(b);
      }
      const changed = { ...optionsSchema, description: 'edited since the build' };
      expect(loadPrebuilt(dir, optionsValidatorName(name), optionsFingerprint(changed)), `${name} edited`).to.equal(undefined);
    }
  });
});

describe("ajv's meta-schema check, prebuilt by the build", () => {
  // Schemas as upstream servers and plugins write them, sound and not.
  const schemas: Record<string, unknown>[] = [
    { type: 'object', properties: { path: { type: 'string', minLength: 1 } }, required: ['path'], additionalProperties: false },
    { type: 'object', properties: { when: { type: 'string', format: 'date-time' }, n: { type: ['integer', 'null'], maximum: 9 } } },
    { type: 'strin' },
    { type: 'object', required: 'path' },
    { type: 'object', properties: { a: { minLength: -1 } } },
    { type: 'object', properties: 5, additionalProperties: 'no' },
    { anyOf: [], enum: 'x' },
  ];
  const ajvOwn = () => {
    const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: false, allowUnionTypes: true });
    (addFormatsModule as unknown as (a: Ajv) => Ajv)(ajv);
    return ajv;
  };
  const outcome = (ajv: Ajv, schema: Record<string, unknown>): string => {
    try {
      ajv.compile(structuredClone(schema));
      return 'compiled';
    } catch (err) {
      return (err as Error).message;
    }
  };

  it("is in the build's output, compiled from the meta-schema and options createAjv's instances have", () => {
    const fingerprint = metaSchemaFingerprint(createAjv());
    expect(fingerprint).to.be.a('string');
    expect(loadPrebuilt(PREBUILT_DIR, META_VALIDATOR_NAME, fingerprint!), 'loaded for this fingerprint').to.be.a('function');
    expect(metaSchemaFingerprint(createAjv({ allErrors: false })), 'other options, another fingerprint').to.not.equal(fingerprint);
  });

  it('refuses and accepts exactly what ajv refuses and accepts, with the same message, without compiling the meta-schema', () => {
    const outcomes = new Set<string>();
    for (const schema of schemas) {
      const ours = createAjv();
      const expected = outcome(ajvOwn(), schema);
      expect(outcome(ours, schema), JSON.stringify(schema)).to.equal(expected);
      outcomes.add(expected === 'compiled' ? expected : 'refused');
      // ajv's own check would have compiled the meta-schema's validator in this instance.
      expect(ours.schemas[META_SCHEMA_ID]?.validate, `the meta-schema compiled for ${JSON.stringify(schema)}`).to.equal(undefined);
    }
    expect([...outcomes].sort()).to.deep.equal(['compiled', 'refused']);
    expect(outcome(createAjv(), { type: 'strin' })).to.match(/^schema is invalid: data\/type must be equal to one of the allowed values/);
  });

  it("leaves a schema that names its draft, and an instance with other options, to ajv's own check", () => {
    const named = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', required: 'path' };
    const ours = createAjv();
    expect(outcome(ours, named)).to.equal(outcome(ajvOwn(), named));
    expect(ours.schemas[META_SCHEMA_ID]?.validate).to.be.a('function');
    const other = createAjv({ allErrors: false });
    expect(outcome(other, schemas[3]!)).to.match(/^schema is invalid/);
    expect(other.schemas[META_SCHEMA_ID]?.validate).to.be.a('function');
  });
});
