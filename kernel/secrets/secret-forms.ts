/**
 * The encoded forms a secret can leave in, computed once per secret (scrubber.ts looks for
 * each as it looks for the value itself).
 *
 * Base64 needs care: inside a longer encoded text (`Authorization: Basic <base64 of
 * user:secret>`), the secret's bytes start at some offset, and only that offset modulo 3
 * decides how its bits fall into base64 characters. So for each of the three alignments the
 * form is the run of characters made of the secret's bits alone; the one or two characters at
 * either end that mix in a neighbour's bits (at most 4 of the secret's bits each) stay. A
 * secret of the minimum 8 bytes still gives runs of 10 characters: no chance match.
 */

/** Base64 characters whose 6 bits all come from `bytes` placed `offset` bytes into a longer text. */
function alignedBase64(bytes: Buffer, offset: 0 | 1 | 2): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
  const first = Math.ceil((offset * 8) / 6);
  const end = Math.floor(((offset + bytes.length) * 8) / 6);
  return encoded.slice(first, end);
}

/** Every form of `secret` other than itself worth looking for; no duplicates, none equal to it. */
export function encodedForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms = new Set<string>();
  for (const offset of [0, 1, 2] as const) {
    const standard = alignedBase64(bytes, offset);
    forms.add(standard);
    forms.add(standard.replaceAll('+', '-').replaceAll('/', '_'));
  }
  const hex = bytes.toString('hex');
  forms.add(hex);
  forms.add(hex.toUpperCase());
  forms.add(encodeURIComponent(secret));
  forms.delete(secret);
  return [...forms];
}
