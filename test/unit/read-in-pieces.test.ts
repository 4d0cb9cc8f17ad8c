/**
 * Reading and hashing text in small pieces (lib/files/read-text.ts, so that no block big enough
 * to raise glibc's thresholds is freed) and splitting a child's stdout into lines across chunks
 * (plugins/upstreams/client/line-reader.ts, text kept as strings): the same answers as reading,
 * hashing and decoding the whole at once, with characters cut at every possible place.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { readTextInPieces, updateInPieces } from '../../lib/files/read-text.js';
import { LineReader, LineTooLongError } from '../../plugins/upstreams/client/line-reader.js';

/** Text past several pieces, with two-, three- and four-byte characters and surrogate pairs everywhere. */
const TEXT = Array.from({ length: 20_000 }, (_, i) => `w${i} é€😀${i % 7 === 0 ? '\n' : ' '}`).join('');

describe('reading and hashing in pieces', () => {
  it('reads a file as readFileSync does, characters cut at piece boundaries included', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pieces-'));
    try {
      const file = join(dir, 'text.txt');
      await writeFile(file, `\ufeff${TEXT}`);
      expect(readTextInPieces(file)).to.equal(readFileSync(file, 'utf8'));
      await writeFile(join(dir, 'empty.txt'), '');
      expect(readTextInPieces(join(dir, 'empty.txt'))).to.equal('');
      expect(() => readTextInPieces(join(dir, 'missing.txt'))).to.throw(/ENOENT/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('hashes as one update of the whole text does', () => {
    for (const text of [TEXT, TEXT.slice(1), TEXT.slice(3), '', 'a']) {
      expect(updateInPieces(createHash('sha256'), text).digest('hex')).to.equal(createHash('sha256').update(text).digest('hex'));
    }
  });
});

describe('LineReader', () => {
  const lines = (text: string, chunk: number, maxBytes = 1 << 24): string[] => {
    const bytes = Buffer.from(text);
    const reader = new LineReader(maxBytes);
    const out: string[] = [];
    for (let at = 0; at < bytes.length; at += chunk) out.push(...reader.push(bytes.subarray(at, at + chunk)));
    return out;
  };
  const whole = (text: string): string[] =>
    text
      .split('\n')
      .slice(0, -1)
      .map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
      .filter((l) => l !== '');

  it('answers the same lines however the bytes are cut into chunks', () => {
    const text = `${TEXT.replaceAll('\n', '\r\n')}\n\n{"last":"é😀"}\n`;
    for (const chunk of [1, 2, 3, 5, 7, 64, 4096, 65536, 1 << 22]) expect(lines(text, chunk), `chunks of ${chunk}`).to.deep.equal(whole(text));
  });

  it('refuses a line longer than its limit, then reads the next line whole', () => {
    const reader = new LineReader(10);
    expect(reader.push(Buffer.from('0123456'))).to.deep.equal([]);
    expect(() => reader.push(Buffer.from('789é'))).to.throw(LineTooLongError);
    expect(reader.push(Buffer.from('ok\n'))).to.deep.equal(['ok']);
  });
});
