/**
 * Policy files to one Cedar policy set: each file parsed and split into its policies (each keeps
 * its file and line, so a decision can name where the policy that decided is written), then
 * every policy validated against the schema in strict mode. Any problem refuses the whole set:
 * a set with one policy left out could permit what that policy forbade.
 *
 * Cedar starts a parser per text it is given, and starting one costs more than parsing a
 * policy: the files are therefore validated (and installed) as one text, their concatenation,
 * in which Cedar numbers the policies `policy0`, `policy1`... in order.
 */
import { policySetTextToParts, policyToJson, validate, type DetailedError } from '@cedar-policy/cedar-wasm/nodejs';
import type { ConfigProblem } from '../../kernel/errors.js';
import { policyHeader, type PolicyHeader } from './policy-header.js';
import { charOffset, lineColumn } from './text-position.js';

/** One file of policies (the shipped baseline or one of the operator's). */
export interface PolicySource {
  /** Absolute path: what problems name. */
  file: string;
  /** How rules name it: relative to the configuration directory (`policies/deny.cedar`). */
  label: string;
  text: string;
  /** The operator's own file: its rules carry `file:line`. */
  operator: boolean;
}

export interface CompiledPolicy {
  /** The policy's id in the installed set (`policy<n>`, in the order of `text`). */
  cedarId: string;
  /** Its `@id("...")` annotation, or `policy<n>` (its Cedar id within its own file). */
  name: string;
  effect: 'permit' | 'forbid';
  source: PolicySource;
  line: number;
  /** What a decision's rule says: the name, and `file:line` for the operator's policies. */
  rule: string;
}

export interface CompiledPolicySet {
  /** Every file's text, in order, one after the other: what Cedar is given. */
  text: string;
  policies: readonly CompiledPolicy[];
  /** The operator's policies and files (what a reload reports). */
  operatorPolicies: number;
  operatorFiles: number;
  /** Equal for equal inputs: a reload that changes nothing keeps the version and the caches. */
  fingerprint: string;
  /** Validator warnings (a policy that can never apply, for example), with file and line. */
  warnings: readonly ConfigProblem[];
}

export type CompileResult = { ok: true; set: CompiledPolicySet } | { ok: false; problems: ConfigProblem[] };

interface Located {
  source: PolicySource;
  text: string;
  /** String index of the policy's first character in its file. */
  start: number;
  /** Its place in its file. */
  index: number;
}

function describe(error: DetailedError): string {
  const label = error.sourceLocations?.[0]?.label;
  const message = label ? `${error.message}: ${label}` : error.message;
  return error.help ? `${message} (${error.help})` : message;
}

/** A problem at UTF-8 byte `byteOffset` of `source`'s text. */
function problemAt(source: PolicySource, byteOffset: number | undefined, message: string): ConfigProblem {
  if (byteOffset === undefined) return { file: source.file, line: 0, column: 0, field: '', message };
  return { file: source.file, ...lineColumn(source.text, charOffset(source.text, byteOffset)), field: '', message };
}

/**
 * The policies of one file in the order they are written, with where each starts.
 * policySetTextToParts gives each policy's own source text but sorted by its Cedar id as a
 * string (`policy0`, `policy1`, `policy10`, `policy2`...), so the order is rebuilt from the
 * ids before each text is found in the file, one after the other.
 */
function split(source: PolicySource): { policies: Located[] } | { problems: ConfigProblem[] } {
  const parts = policySetTextToParts(source.text);
  if (parts.type === 'failure') return { problems: parts.errors.map((e) => problemAt(source, e.sourceLocations?.[0]?.start, describe(e))) };
  if (parts.policy_templates.length > 0) {
    const at = Math.max(0, source.text.indexOf(parts.policy_templates[0]!));
    return {
      problems: [
        {
          file: source.file,
          ...lineColumn(source.text, at),
          field: '',
          message: 'policy templates (?principal, ?resource) are not supported: name the entity in the policy',
        },
      ],
    };
  }
  const sortedIds = parts.policies.map((_, i) => `policy${i}`).sort();
  const inOrder = new Array<string>(parts.policies.length);
  parts.policies.forEach((text, k) => {
    inOrder[Number(sortedIds[k]!.slice('policy'.length))] = text;
  });
  let cursor = 0;
  const policies = inOrder.map((text, index): Located => {
    const found = source.text.indexOf(text, cursor);
    const start = found === -1 ? cursor : found;
    if (found !== -1) cursor = found + text.length;
    return { source, text, start, index };
  });
  return { policies };
}

function headerOf(text: string): PolicyHeader | undefined {
  const fast = policyHeader(text);
  if (fast) return fast;
  const json = policyToJson(text);
  if (json.type === 'failure') return undefined;
  const id = json.json.annotations?.id;
  return id !== undefined ? { effect: json.json.effect, id } : { effect: json.json.effect };
}

/**
 * One problem per place: the validator checks a policy once per principal and resource type
 * it may apply to, so one typo is reported for Person, Local and Anonymous alike.
 */
function oncePerPlace(problems: ConfigProblem[]): ConfigProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.file}:${p.line}:${p.column}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Parses and validates `sources` (the baseline first, if any) against `schema` (Cedar schema text). */
export function compilePolicies(sources: readonly PolicySource[], schema: string): CompileResult {
  const problems: ConfigProblem[] = [];
  const policies: CompiledPolicy[] = [];
  /** Per policy (by Cedar id): the UTF-8 byte where its file starts in the combined text. */
  const fileBase = new Map<string, number>();
  let base = 0;
  for (const source of sources) {
    const result = split(source);
    if ('problems' in result) {
      problems.push(...result.problems);
    } else {
      for (const policy of result.policies) {
        const cedarId = `policy${policies.length}`;
        const header = headerOf(policy.text);
        if (!header) {
          problems.push(problemAt(source, Buffer.byteLength(source.text.slice(0, policy.start)), "cannot read the policy's effect and annotations"));
          continue;
        }
        const { line } = lineColumn(source.text, policy.start);
        const name = header.id ?? `policy${policy.index}`;
        fileBase.set(cedarId, base);
        policies.push({ cedarId, name, effect: header.effect, source, line, rule: source.operator ? `${name} (${source.label}:${line})` : name });
      }
    }
    base += Buffer.byteLength(source.text) + 1;
  }
  if (problems.length > 0) return { ok: false, problems };

  // Joined by a newline: a file may end inside a line comment.
  const text = sources.map((s) => s.text).join('\n');
  const answer = validate({ schema, policies: { staticPolicies: text }, validationSettings: { mode: 'strict' } });
  if (answer.type === 'failure') {
    return {
      ok: false,
      problems: answer.errors.map((e) => ({
        file: sources[0]?.file ?? '',
        line: 0,
        column: 0,
        field: '',
        message: `cannot validate the policies: ${describe(e)}`,
      })),
    };
  }
  const byId = new Map(policies.map((p) => [p.cedarId, p]));
  const at = (policyId: string, error: DetailedError): ConfigProblem => {
    const policy = byId.get(policyId);
    // Cedar's message says "for policy `policy<n>`" (its number in the combined text): file and line say which better.
    const message = describe(error).replace(/^for policy `[^`]*`, /, '');
    if (!policy) return { file: '', line: 0, column: 0, field: '', message };
    const start = error.sourceLocations?.[0]?.start;
    return problemAt(policy.source, start === undefined ? undefined : start - fileBase.get(policyId)!, message);
  };
  const errors = oncePerPlace(answer.validationErrors.map((e) => at(e.policyId, e.error)));
  if (errors.length > 0) return { ok: false, problems: errors };

  const operator = policies.filter((p) => p.source.operator);
  return {
    ok: true,
    set: {
      text,
      policies,
      operatorPolicies: operator.length,
      operatorFiles: sources.filter((s) => s.operator).length,
      fingerprint: JSON.stringify(sources.map((s) => [s.label, s.text])),
      warnings: oncePerPlace(answer.validationWarnings.map((w) => at(w.policyId, w.error))),
    },
  };
}
