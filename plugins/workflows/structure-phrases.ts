/**
 * The structural problems of a tool-form definition that the workflow schema would word in
 * its own terms ("must match pattern", "required field 'items' is missing"), worded instead
 * as clients of the reference service match them (reference-behaviour.md §6.2): an empty step
 * id, a loop without items or without a body. Each phrase replaces the schema's problem on
 * the same field; the id pattern itself stays.
 */

export interface StructuralPhrases {
  problems: string[];
  /** The schema fields (`steps.0.id`) these problems replace. */
  fields: Set<string>;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

const emptyId = (step: Record<string, unknown>) => step.id === undefined || step.id === '';

export function structuralPhrases(steps: unknown, onFailure: unknown): StructuralPhrases {
  const out: StructuralPhrases = { problems: [], fields: new Set() };
  const say = (field: string, problem: string) => {
    out.problems.push(problem);
    out.fields.add(field);
  };
  const subSteps = (list: unknown, field: string, group: string) => {
    if (!Array.isArray(list)) return;
    list.forEach((sub, j) => {
      if (isObject(sub) && emptyId(sub)) say(`${field}.${j}.id`, `${group} sub-step ${j}: id cannot be empty`);
    });
  };
  if (Array.isArray(steps)) {
    steps.forEach((step, i) => {
      if (!isObject(step)) return;
      if (emptyId(step)) say(`steps.${i}.id`, `steps: step ${i}: id cannot be empty`);
      const label = emptyId(step) ? `step ${i}` : `step '${String(step.id)}'`;
      const loop = step.forEach;
      if (isObject(loop)) {
        if (loop.items === undefined || loop.items === '')
          say(`steps.${i}.forEach.items`, `${label}: forEach: items is required and must be a template string (or a list)`);
        if (loop.steps === undefined || (Array.isArray(loop.steps) && loop.steps.length === 0))
          say(`steps.${i}.forEach.steps`, `${label}: forEach: steps is required and must contain at least one sub-step`);
        subSteps(loop.steps, `steps.${i}.forEach.steps`, `${label} forEach`);
      }
      subSteps(step.parallel, `steps.${i}.parallel`, `${label} parallel`);
    });
  }
  subSteps(onFailure, 'onFailure', 'onFailure');
  return out;
}
