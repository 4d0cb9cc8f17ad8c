import { expect } from 'chai';
import { Ajv } from 'ajv';
import { checkQueryLength, MAX_QUERY_CHARACTERS } from '../../plugins/meta-tools/query-length.js';

const refusal = (query: string): string | undefined => {
  try {
    checkQueryLength(query);
    return undefined;
  } catch (err) {
    return `${(err as { code: string }).code}: ${(err as Error).message}`;
  }
};

describe('a search query is read up to 4,096 characters', () => {
  it('takes a query of 4,096 characters and refuses one of 4,097, naming the limit', () => {
    expect(refusal('a'.repeat(MAX_QUERY_CHARACTERS))).to.equal(undefined);
    expect(refusal('a'.repeat(MAX_QUERY_CHARACTERS + 1))).to.match(/^INVALID_ARGUMENTS: query must NOT have more than 4096 characters/);
  });

  it("counts characters as filter_tools' schema does: a character outside the BMP is one, not two code units", () => {
    const schema = { type: 'string', maxLength: MAX_QUERY_CHARACTERS };
    const valid = new Ajv().compile(schema);
    for (const query of ['😀'.repeat(MAX_QUERY_CHARACTERS), '😀'.repeat(MAX_QUERY_CHARACTERS + 1), `${'😀'.repeat(2_000)}${'a'.repeat(2_097)}`]) {
      expect(refusal(query) === undefined, `${query.length} code units`).to.equal(valid(query));
    }
    expect(refusal('😀'.repeat(MAX_QUERY_CHARACTERS))).to.equal(undefined);
  });

  it('refuses a query the size of the body limit without reading it through', () => {
    const query = 'x'.repeat(4_000_000);
    const started = process.cpuUsage();
    const refused = refusal(query);
    const { user, system } = process.cpuUsage(started);
    expect(refused).to.match(/^INVALID_ARGUMENTS/);
    // Counting stops one past the limit: microseconds, where reading 4,000,000 characters took seconds.
    expect((user + system) / 1000).to.be.below(50);
  });
});
