/**
 * VS Code's mcp.json and settings.json are JSON with comments and trailing commas. This
 * removes both outside strings, so JSON.parse reads the rest (and reports positions in it).
 */
export function stripJsonc(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  // A comma before a closing bracket (outside strings, which are intact above) is dropped.
  return out.replace(/,(\s*[}\]])/g, '$1');
}
