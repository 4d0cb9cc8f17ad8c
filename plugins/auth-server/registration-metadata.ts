/**
 * Bounds on what one client may register (RFC 7591 metadata), checked on the document as sent,
 * before anything is stored: a registration is unauthenticated by default, and whatever it
 * holds is kept (in memory, on disk, in Redis) until the client expires. A refusal is RFC 7591's
 * `invalid_client_metadata` naming the field and the bound.
 */

/** The whole document, in bytes: a real client's metadata is well under 2 KiB. */
export const MAX_DOCUMENT_BYTES = 16 * 1024;
/** client_name and its localized forms (`client_name#fr`), in characters. */
export const MAX_NAME_CHARS = 200;
/** Any other string (URIs, scope, software_id, ...), alone or in an array, in characters. */
export const MAX_STRING_CHARS = 2048;
export const MAX_REDIRECT_URIS = 10;
/** Any other array (contacts, grant_types, post_logout_redirect_uris, ...). */
export const MAX_ARRAY_ENTRIES = 32;

export interface MetadataProblem {
  error: 'invalid_client_metadata';
  description: string;
}

const problem = (description: string): MetadataProblem => ({ error: 'invalid_client_metadata', description });

/** Field names are the client's: a long one is cut when quoted back. */
const shown = (field: string) => (field.length > 64 ? `${field.slice(0, 64)}...` : field);

function stringProblem(field: string, value: string): MetadataProblem | undefined {
  const max = field === 'client_name' || field.startsWith('client_name#') ? MAX_NAME_CHARS : MAX_STRING_CHARS;
  return value.length > max ? problem(`${shown(field)} is ${value.length} characters; at most ${max} are allowed`) : undefined;
}

/** What is wrong with a parsed registration document (size already checked), or undefined. */
export function metadataProblem(doc: unknown): MetadataProblem | undefined {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return problem('the registration document must be a JSON object');
  for (const [field, value] of Object.entries(doc as Record<string, unknown>)) {
    if (field.length > MAX_STRING_CHARS) return problem(`a field name is ${field.length} characters; at most ${MAX_STRING_CHARS} are allowed`);
    if (typeof value === 'string') {
      const p = stringProblem(field, value);
      if (p) return p;
    } else if (Array.isArray(value)) {
      const max = field === 'redirect_uris' ? MAX_REDIRECT_URIS : MAX_ARRAY_ENTRIES;
      if (value.length > max) return problem(`${shown(field)} has ${value.length} entries; at most ${max} are allowed`);
      for (const [i, entry] of value.entries()) {
        const p = typeof entry === 'string' ? stringProblem(`${field}[${i}]`, entry) : undefined;
        if (p) return p;
      }
    }
  }
  return undefined;
}
