/**
 * Hostile configuration documents and templates, generated: whatever an operator (or an
 * attacker with write access to a watched directory) puts there, parsing, validation and
 * workflow compilation answer with problems, never an exception, and never pollute
 * Object.prototype.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { validateDocument, type SchemaName } from '../../kernel/config/validate.js';
import { MAX_DOCUMENT_BYTES, parseYaml } from '../../kernel/config/yaml-document.js';
import type { WorkflowResource } from '../../kernel/config/settings.js';
import { compileWorkflow } from '../../plugins/workflows/compile-workflow.js';
import { fromResource } from '../../plugins/workflows/definition.js';
import { compile, TemplateError } from '../../packages/gotpl/src/index.js';

const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
const FIELD_KEYS = [
  'name',
  'type',
  'command',
  'args',
  'url',
  'env',
  'headers',
  'timeout',
  'steps',
  'tool',
  'id',
  'condition',
  'spec',
  'metadata',
  'aggregator',
  'toolsetPresets',
  'include',
  'exclude',
  'plugins',
  'fromFile',
];

const key = fc.oneof(fc.constantFrom(...HOSTILE_KEYS, ...FIELD_KEYS), fc.string({ maxLength: 12 }));
const scalar = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('{{ .input.x }}', '{{', '}}', '{{ template "x" }}', '${HOME}', '$${'),
);
const tree = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(key, tie('node'), { maxKeys: 5 }),
  ),
})).node;

const BASES: Record<SchemaName, Record<string, unknown>> = {
  config: {},
  mcpserver: { name: 'fuzz', type: 'stdio', command: ['node'] },
  workflow: { apiVersion: 'v1', kind: 'Workflow', metadata: { name: 'fuzz' }, spec: { steps: [{ id: 'a', tool: 'core_service_list' }] } },
};

/** Runs the whole check a file gets: parse, schema, and for workflows the engine's compile. */
function checkDocument(kind: SchemaName, text: string): number {
  const parsed = parseYaml(text, `fuzz.${kind}.yaml`);
  if (parsed.problems.length) return parsed.problems.length;
  const value = parsed.value;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 1;
  const problems = validateDocument(kind, value, parsed);
  if (problems.length === 0 && kind === 'workflow') {
    const compiled = compileWorkflow(fromResource(value as WorkflowResource, 'fuzz'));
    return compiled.ok ? 0 : compiled.errors.length;
  }
  return problems.length;
}

function unpolluted(): void {
  const probe = {} as Record<string, unknown>;
  for (const k of ['polluted', 'name', 'type', 'steps', 'command']) expect(probe[k], `Object.prototype.${k}`).to.equal(undefined);
}

describe('fuzz: configuration documents', () => {
  for (const kind of Object.keys(BASES) as SchemaName[]) {
    it(`${kind}: any generated document is answered with problems or accepted, never an exception`, () => {
      fc.assert(
        fc.property(fc.dictionary(key, tree, { maxKeys: 6 }), fc.boolean(), (overlay, merge) => {
          const doc = merge ? { ...BASES[kind], ...overlay } : overlay;
          checkDocument(kind, stringify(doc));
          unpolluted();
        }),
        { numRuns: 400, seed: 7 },
      );
    });
  }

  it('arbitrary text (not YAML at all, or broken YAML) is a problem with a position', () => {
    const yamlish = fc
      .array(fc.constantFrom('a: ', '- ', '&x ', '*x ', '{', '}', '[', ']', '"', "'", '\n', '  ', ':', '!!binary ', '? ', '|', '>', '#', 'name', '<<: *x'), {
        maxLength: 40,
      })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), yamlish), (text) => {
        for (const kind of Object.keys(BASES) as SchemaName[]) checkDocument(kind, text);
        unpolluted();
      }),
      { numRuns: 500, seed: 11 },
    );
  });

  it('a "billion laughs" document is refused by name, not expanded', () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 10; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    const parsed = parseYaml(lines.join('\n'), 'bomb.yaml');
    expect(parsed.problems).to.have.length(1);
    expect(parsed.problems[0]!.message).to.match(/^YAML cannot be expanded: .*alias/i);
  });

  it('a document over the size limit is refused before parsing', () => {
    const parsed = parseYaml(`name: x\ndescription: "${'x'.repeat(MAX_DOCUMENT_BYTES)}"\n`, 'huge.yaml');
    expect(parsed.problems[0]!.message).to.match(/^document is \d+ characters; at most 1048576 are read$/);
  });

  it('prototype-pollution keys in a definition stay data', () => {
    const text = '__proto__:\n  polluted: yes\nconstructor:\n  prototype:\n    polluted: yes\nname: fuzz\ntype: stdio\ncommand: [node]\n';
    expect(checkDocument('mcpserver', text)).to.be.greaterThan(0);
    unpolluted();
  });
});

describe('fuzz: templates', () => {
  const pieces = fc.constantFrom(
    '{{',
    '}}',
    '{{-',
    '-}}',
    ' ',
    '.input',
    '.results.a',
    '.vars.x',
    '|',
    'printf "%d"',
    'len',
    'index',
    'if',
    'else',
    'end',
    'range',
    'with',
    'define "t"',
    'template "t"',
    'block "b" .',
    '$x := 1',
    '$x',
    '(',
    ')',
    '"s"',
    '`raw`',
    '3',
    '-1.5e3',
    'nil',
    'true',
    'eq',
    'and',
    'or',
    'not',
    'toJson',
    'fromJson',
    'default',
    'x',
    '/*',
    '*/',
    '.',
    ',',
  );
  const source = fc.oneof(
    fc.string({ maxLength: 60 }),
    fc.array(pieces, { maxLength: 25 }).map((p) => p.join('')),
  );
  const data = fc.record({
    input: fc.dictionary(fc.string({ maxLength: 5 }), tree, { maxKeys: 4 }),
    results: fc.dictionary(fc.constantFrom('a', 'b'), tree, { maxKeys: 2 }),
    vars: fc.dictionary(fc.constantFrom('x', 'i'), tree, { maxKeys: 2 }),
  });

  it('compiling and rendering any template either works or raises a TemplateError with a message', () => {
    fc.assert(
      fc.property(source, data, (text, input) => {
        let template;
        try {
          template = compile(text, { name: 'fuzz' });
        } catch (err) {
          expect(err, String(err)).to.be.instanceOf(TemplateError);
          expect((err as Error).message)
            .to.be.a('string')
            .and.not.equal('');
          return;
        }
        try {
          template.render(input);
        } catch (err) {
          expect(err, String(err)).to.be.instanceOf(TemplateError);
        }
        unpolluted();
      }),
      { numRuns: 1500, seed: 3 },
    );
  });
});
