/**
 * How deep a JSON value nests, found without recursion: a value nested thousands of levels
 * deep (which JSON.parse accepts) would overflow the stack of every recursive walker after
 * it (JSON.stringify, schema validation), so it is measured first, iteratively, and refused.
 * Stops counting as soon as `limit` is passed.
 */
export function exceedsDepth(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
