/**
 * What `.results.<id>` holds for a step: the tool's structuredContent when it has one;
 * otherwise its text parsed as JSON when it parses; otherwise the text itself.
 */
import type { CallToolResult } from '#mcp-sdk/types.js';

export function stepValue(result: CallToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const text = result.content
    .filter((c): c is { type: 'text'; text: string } => c.type === 'text')
    .map((c) => c.text)
    .join('');
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(trimmed) as unknown;
    } catch {
      // Not JSON after all: the text is the value.
    }
  }
  return text;
}

export function resultText(result: CallToolResult): string {
  return result.content
    .filter((c): c is { type: 'text'; text: string } => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

/**
 * The words of a failed call, verbatim. A nested workflow's failure is its JSON document;
 * its human message (`error`) is what the outer run reports.
 */
export function failureText(result: CallToolResult): string {
  const text = resultText(result);
  if (text.startsWith('{"execution_id"')) {
    try {
      const doc = JSON.parse(text) as { error?: unknown };
      if (typeof doc.error === 'string') return doc.error;
    } catch {
      // Not a workflow's document after all: the text is the message.
    }
  }
  return text;
}
