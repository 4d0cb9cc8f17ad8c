/**
 * Bounded label values. A catalogue can hold ten thousand tools and a client can send any
 * name; a time series per value would swamp the metrics backend. The first `limit` tool
 * names seen get their own series; later ones share `_other`. Attribute objects are built
 * once per (tool, outcome) and reused, so recording allocates nothing on the hot path.
 */
import type { Attributes } from '@opentelemetry/api';
import type { CallEnd } from '../../kernel/index.js';

export const OTHER = '_other';

export class CallAttributes {
  private readonly byTool = new Map<string, Map<string, Attributes>>();

  constructor(private readonly limit: number) {}

  of(end: CallEnd): Attributes {
    const tool = end.tool === undefined ? OTHER : this.byTool.has(end.tool) || this.byTool.size < this.limit ? end.tool : OTHER;
    let perOutcome = this.byTool.get(tool);
    if (!perOutcome) {
      perOutcome = new Map();
      this.byTool.set(tool, perOutcome);
    }
    const key = `${end.outcome}\u0000${end.errorCode ?? ''}`;
    let attrs = perOutcome.get(key);
    if (!attrs) {
      attrs = {
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': tool,
        'switchboard.server': tool === OTHER ? OTHER : (end.server ?? 'switchboard'),
        'switchboard.tool.kind': end.kind ?? 'unknown',
        'switchboard.call.outcome': end.outcome,
        ...(end.outcome === 'ok' ? {} : { 'error.type': end.errorCode ?? (end.outcome === 'error_result' ? 'tool_error' : end.outcome) }),
      };
      perOutcome.set(key, attrs);
    }
    return attrs;
  }
}
