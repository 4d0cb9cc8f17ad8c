/** The admin UI's stderr tail keeps the newest lines only, each cut to a bounded length. */
import { expect } from 'chai';
import { STDERR_LINE_CHARS, STDERR_LINES, StderrTail } from '../../plugins/upstreams/stderr-tail.js';

describe('stderr tail of a stdio server', () => {
  it('keeps the last STDERR_LINES lines, oldest first, each at most STDERR_LINE_CHARS', () => {
    const tail = new StderrTail();
    for (let i = 0; i < STDERR_LINES + 50; i++) tail.push(`line ${i}`);
    tail.push('x'.repeat(STDERR_LINE_CHARS * 5));
    const lines = tail.lines();
    expect(lines).to.have.length(STDERR_LINES);
    expect(lines[0]).to.equal('line 51');
    expect(lines.at(-1)!.length).to.equal(STDERR_LINE_CHARS + 1);
  });
});
