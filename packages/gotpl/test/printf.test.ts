import { expect } from 'chai';
import { render } from './support/render.js';

/** printf with the given format and arguments passed as data. */
function printf(format: string, ...args: unknown[]): string {
  const refs = args.map((_, i) => ` (index .a ${i})`).join('');
  return render(`{{ printf .f${refs} }}`, { f: format, a: args });
}

describe('gotpl: printf verbs', () => {
  it('%v prints values the Go way, including maps sorted by key and slices', () => {
    expect(printf('%v|%v|%v|%v|%v', 'str', 42, 1.5, true, null)).to.equal('str|42|1.5|true|<nil>');
    expect(printf('%v', { b: 2, a: [1, 'x', null], c: { d: true } })).to.equal('map[a:[1 x <nil>] b:2 c:map[d:true]]');
    expect(printf('%+v', [1, 2, 3])).to.equal('[1 2 3]');
  });

  it('%#v prints Go syntax', () => {
    expect(printf('%#v', { a: [1, 'x', null] })).to.equal('map[string]interface {}{"a":[]interface {}{1, "x", interface {}(nil)}}');
  });

  it('%s %q %x %X on strings', () => {
    expect(printf('%s|%q|%x|%X|% x|%#x', 'hé', 'a"b\n', 'hi', 'hi', 'hi', 'hi')).to.equal('hé|"a\\"b\\n"|6869|6869|68 69|0x6869');
    expect(printf('%+q|%#q', 'é', 'back`tick')).to.equal('"\\u00e9"|"back`tick"');
  });

  it('%d %b %o %O %x %X %c %q %U on integers', () => {
    expect(printf('%d|%b|%o|%O|%x|%X|%#x|%#o', 255, 5, 8, 8, 255, 255, 255, 8)).to.equal('255|101|10|0o10|ff|FF|0xff|010');
    expect(printf('%c|%q|%U|%#U', 65, 0x1f600, 0x1f600, 65)).to.equal("A|'😀'|U+1F600|U+0041 'A'");
    expect(printf('%x|%d', -255, -7)).to.equal('-ff|-7');
  });

  it('%f %e %g with precision, rounding ties to even like Go', () => {
    expect(printf('%f|%.2f|%.0f|%.0f|%.1f', 3.14159, 3.14159, 0.5, 2.5, 1.25)).to.equal('3.141590|3.14|0|2|1.2');
    expect(printf('%e|%E|%.3e', 123456.789, 0.000123, 1234.5)).to.equal('1.234568e+05|1.230000E-04|1.234e+03');
    expect(printf('%g|%g|%g|%.3g|%G', 100000.5, 1e21, 1e-7, 1234.5678, 1e-7)).to.equal('100000.5|1e+21|1e-07|1.23e+03|1E-07');
  });

  it('%v of a float uses the shortest digits, in exponent form when the exponent is < -4 or >= 6', () => {
    expect(printf('%v|%v|%v|%v|%v', 123456.5, 1234567.5, 1e21, 0.0001, 0.00001)).to.equal('123456.5|1.2345675e+06|1e+21|0.0001|1e-05');
  });

  it('%t on booleans, %% for a percent sign, %T for type names', () => {
    expect(printf('%t|%%|%T|%T|%T|%T', false, 1, 1.5, [], {})).to.equal('false|%|int|float64|[]interface {}|map[string]interface {}');
  });

  it('width, precision and the - + 0 space flags', () => {
    expect(printf('[%5d][%-5d][%05d][%+d][% d]', 42, 42, -42, 42, 42)).to.equal('[   42][42   ][-0042][+42][ 42]');
    expect(printf('[%8.3f][%-8.2f][%08.3f][%+.1e]', 3.14159, 2.5, -3.14159, 12345.0)).to.equal('[   3.142][2.50    ][-003.142][+1.2e+04]');
    expect(printf('[%6s][%-6s][%.2s][%5.1s]', 'ab', 'ab', 'abcdef', 'xyz')).to.equal('[    ab][ab    ][ab][    x]');
    expect(printf('[%.3d][%.0d]', 7, 0)).to.equal('[007][]');
  });

  it('applies width and verb to each element of a collection', () => {
    expect(printf('%3d', [1, 22])).to.equal('[  1  22]');
    expect(printf('%q', ['a', 'b'])).to.equal('["a" "b"]');
  });

  it('takes width and precision from arguments with *, and arguments by index', () => {
    expect(printf('[%*d][%-*d][%.*f]', 5, 1, 3, 2, 2, 3.14159)).to.equal('[    1][2  ][3.14]');
    expect(printf('%[2]d %[1]d', 1, 2)).to.equal('2 1');
  });

  it('reports problems inline, as Go does', () => {
    expect(printf('%d', 'x')).to.equal('%!d(string=x)');
    expect(printf('%d', 3.5)).to.equal('%!d(float64=3.5)');
    expect(printf('%s', null)).to.equal('%!s(<nil>)');
    expect(printf('%d %d', 1)).to.equal('1 %!d(MISSING)');
    expect(printf('%d', 1, 2, 'x')).to.equal('1%!(EXTRA int=2, string=x)');
    expect(printf('%z', 1)).to.equal('%!z(int=1)');
    expect(printf('%[3]d', 1)).to.equal('%!d(BADINDEX)');
    expect(printf('%')).to.equal('%!(NOVERB)');
    expect(printf('%d', { k: 'v' })).to.equal('map[%!d(string=k):%!d(string=v)]');
  });
});
