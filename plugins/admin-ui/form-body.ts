/**
 * The body of an admin form: application/x-www-form-urlencoded, at most FORM_LIMIT bytes.
 * Anything else is refused before it is read whole (415, 413), so a page elsewhere cannot
 * make the listener hold a large body (the CSRF check already refused it unless it is ours).
 */
import type Koa from 'koa';
import { SwitchboardError } from '../../kernel/index.js';

/** 256 KiB: a pasted IDE file with a few dozen servers, or a tool's arguments. */
export const FORM_LIMIT = 256 * 1024;

export class FormError extends SwitchboardError {
  constructor(
    readonly status: 413 | 415,
    message: string,
  ) {
    super(status === 413 ? 'TOO_LARGE' : 'VALIDATION_FAILED', message);
  }
}

export async function readForm(ctx: Koa.Context): Promise<URLSearchParams> {
  const type = (ctx.get('content-type').split(';')[0] ?? '').trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded')
    throw new FormError(415, `the admin pages take form posts (application/x-www-form-urlencoded), not '${type.slice(0, 100) || 'no content type'}'`);
  const declared = Number(ctx.get('content-length') || '0');
  if (declared > FORM_LIMIT) throw new FormError(413, `the form is ${declared} bytes; the admin pages take at most ${FORM_LIMIT}`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_LIMIT) throw new FormError(413, `the form is over ${FORM_LIMIT} bytes, the most the admin pages take`);
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
