/**
 * What a URL-mode elicitation from an upstream must look like before it reaches a person.
 * The URL is the upstream's, shown to someone who may open it: Switchboard never opens it,
 * but it refuses what is plainly not a web page (javascript:, data:, file: ...), a URL that
 * hides its real host behind credentials (https://bank.example@evil.example), and sizes no
 * person reads. The client still has to show the domain (docs/security.md).
 */
import type { UrlElicitation } from '../../../kernel/index.js';

export const MAX_URL_LENGTH = 2048;
export const MAX_ELICITATION_ID_LENGTH = 256;
export const MAX_MESSAGE_LENGTH = 4096;
/** More pages than this in one -32042 is not a sign-in any person would go through. */
export const MAX_ELICITATIONS = 8;

/** Why `url` may not be offered to a person, or undefined when it may. */
export function urlProblem(url: unknown): string | undefined {
  if (typeof url !== 'string') return 'url must be a string';
  if (url.length > MAX_URL_LENGTH) return `url is ${url.length} characters, more than the limit of ${MAX_URL_LENGTH}`;
  if (!URL.canParse(url)) return 'url is not an absolute URL';
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    return `url has the scheme '${parsed.protocol.slice(0, -1)}'; only http and https are relayed`;
  if (parsed.username || parsed.password) return 'url carries credentials before its host (user@host), which hides the real host from the person';
  return undefined;
}

/** The parts of one URL-mode elicitation, or why it is refused (naming the field). */
export function readUrlElicitation(value: unknown): UrlElicitation | string {
  if (typeof value !== 'object' || value === null) return 'the elicitation is not an object';
  const e = value as Record<string, unknown>;
  const id = e.elicitationId;
  if (typeof id !== 'string' || id === '') return 'elicitationId must be a non-empty string';
  if (id.length > MAX_ELICITATION_ID_LENGTH) return `elicitationId is ${id.length} characters, more than the limit of ${MAX_ELICITATION_ID_LENGTH}`;
  if (typeof e.message !== 'string') return 'message must be a string';
  if (e.message.length > MAX_MESSAGE_LENGTH) return `message is ${e.message.length} characters, more than the limit of ${MAX_MESSAGE_LENGTH}`;
  const problem = urlProblem(e.url);
  if (problem) return problem;
  return { mode: 'url', elicitationId: id, url: e.url as string, message: e.message };
}

/** The pages of a -32042 error's data (`{elicitations: [...]}`), or why they are refused. */
export function readUrlElicitations(data: unknown): UrlElicitation[] | string {
  const list = (data as { elicitations?: unknown } | undefined)?.elicitations;
  if (!Array.isArray(list) || list.length === 0) return 'its data carries no elicitations';
  if (list.length > MAX_ELICITATIONS) return `it asks for ${list.length} pages, more than the limit of ${MAX_ELICITATIONS}`;
  const out: UrlElicitation[] = [];
  for (const [i, item] of list.entries()) {
    const read = readUrlElicitation(item);
    if (typeof read === 'string') return `elicitations[${i}]: ${read}`;
    out.push(read);
  }
  return out;
}
