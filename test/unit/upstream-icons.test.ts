/**
 * plugins/upstreams/icons.ts: which of an upstream's icons a client gets. Every way an icon
 * can point somewhere unsafe, or cost a client too much, is refused with its reason.
 */
import { expect } from 'chai';
import { createLogger } from '../../kernel/log.js';
import { keepSafeIcons, MAX_ICON_SRC_LENGTH, MAX_ICONS_PER_ITEM } from '../../plugins/upstreams/icons.js';

function kept(icons: unknown): { icons?: unknown; logged: string[] } {
  const logged: string[] = [];
  const item: { icons?: unknown } = { icons };
  keepSafeIcons(item, "tool 't'", createLogger({ level: 'debug', sink: { write: (line) => logged.push(line) } }));
  return { ...(item.icons !== undefined ? { icons: item.icons } : {}), logged };
}

/** The reason one icon with `src` is dropped, or undefined when it is kept. */
function refusal(icon: unknown): string | undefined {
  const r = kept([icon]);
  if (r.icons !== undefined) return undefined;
  expect(r.logged).to.have.length(1);
  return /dropping icon 0 of tool 't': (.*)/.exec(r.logged[0]!)?.[1];
}

describe('upstream icons: what a client is handed', () => {
  it('keeps https: URLs to public hosts and data: URIs of image types, with the fields MCP defines', () => {
    const good = [
      { src: 'https://cdn.example.com/a.png', mimeType: 'image/png', sizes: ['16x16', 'any'], theme: 'light' },
      { src: 'data:image/svg+xml;base64,PHN2Zy8+', mimeType: 'image/svg+xml' },
      { src: 'data:image/svg+xml,%3Csvg%2F%3E' },
      { src: 'HTTPS://93.184.215.14/b.webp', theme: 'dark' },
    ];
    expect(kept(good)).to.deep.equal({ icons: good, logged: [] });
    // Fields MCP does not define stay behind.
    expect(kept([{ src: 'https://cdn.example.com/a.png', onload: 'x', style: 'y' }]).icons).to.deep.equal([{ src: 'https://cdn.example.com/a.png' }]);
  });

  it('refuses every other scheme', () => {
    expect(refusal({ src: 'javascript:alert(1)' })).to.equal('its src is a javascript: URI (only https: and data: are kept)');
    expect(refusal({ src: 'JavaScript:alert(1)' })).to.equal('its src is a javascript: URI (only https: and data: are kept)');
    expect(refusal({ src: 'vbscript:msgbox' })).to.match(/vbscript: URI/);
    expect(refusal({ src: 'file:///etc/passwd' })).to.match(/file: URI/);
    expect(refusal({ src: 'http://cdn.example.com/a.png' })).to.match(/http: URI/);
    expect(refusal({ src: 'ftp://cdn.example.com/a.png' })).to.match(/ftp: URI/);
    expect(refusal({ src: 'ws://cdn.example.com/a.png' })).to.match(/ws: URI/);
    expect(refusal({ src: 'blob:https://cdn.example.com/1' })).to.match(/blob: URI/);
    expect(refusal({ src: '/relative/icon.png' })).to.equal('its src is not a URI');
    expect(refusal({ src: '' })).to.equal('its src is not a URI');
  });

  it("refuses hosts on the client's own machine or network, however they are written", () => {
    for (const src of [
      'https://127.0.0.1/a.png',
      'https://127.1/a.png',
      'https://2130706433/a.png',
      'https://0x7f.0.0.1/a.png',
      'https://[::1]/a.png',
      'https://[::ffff:127.0.0.1]/a.png',
      'https://0.0.0.0/a.png',
      'https://10.0.0.1/a.png',
      'https://172.16.5.4/a.png',
      'https://192.168.0.1/a.png',
      'https://169.254.169.254/latest/meta-data/',
      'https://[fd00::1]/a.png',
      'https://100.64.0.1/a.png',
    ])
      expect(refusal({ src }), src).to.match(/is not a public address$/);
    expect(refusal({ src: 'https://localhost/a.png' })).to.equal("'localhost' is the client's own machine");
    expect(refusal({ src: 'https://LOCALHOST./a.png' })).to.equal("'localhost' is the client's own machine");
    expect(refusal({ src: 'https://app.localhost/a.png' })).to.equal("'app.localhost' is the client's own machine");
  });

  it('refuses credentials, whitespace and control characters in a URL', () => {
    expect(refusal({ src: 'https://user:pw@cdn.example.com/a.png' })).to.equal('its src carries credentials');
    expect(refusal({ src: 'https://user@cdn.example.com/a.png' })).to.equal('its src carries credentials');
    expect(refusal({ src: 'https://cdn.example.com/a\n.png' })).to.equal('its src holds whitespace or control characters');
    expect(refusal({ src: 'java\tscript:alert(1)' })).to.equal('its src holds whitespace or control characters');
    expect(refusal({ src: ' https://cdn.example.com/a.png' })).to.equal('its src holds whitespace or control characters');
    expect(refusal({ src: 'https://cdn.example.com/\u0085.png' })).to.equal('its src holds whitespace or control characters');
  });

  it('refuses data: URIs that are not images, or not the base64 they claim', () => {
    expect(refusal({ src: 'data:text/html;base64,PHNjcmlwdD4=' })).to.equal("its data: URI is of type 'text/html', not an image type");
    expect(refusal({ src: 'data:application/javascript,alert(1)' })).to.match(/'application\/javascript', not an image type/);
    expect(refusal({ src: 'data:image/png;base64,<svg/onload=alert(1)>' })).to.equal('its data: URI says base64 but is not');
    expect(refusal({ src: 'data:,hello' })).to.equal('its data: URI names no media type, or a malformed one');
    expect(refusal({ src: 'data:image/png;x=<b>;base64,AAAA' })).to.equal('its data: URI names no media type, or a malformed one');
    expect(refusal({ src: 'data:image/png;charset=utf-8;base64,AAAA' })).to.equal(undefined);
  });

  it(`refuses a src longer than ${MAX_ICON_SRC_LENGTH} characters, and keeps one exactly that long`, () => {
    const prefix = 'data:image/png;base64,';
    const at = `${prefix}${'A'.repeat(MAX_ICON_SRC_LENGTH - prefix.length)}`;
    expect(refusal({ src: at })).to.equal(undefined);
    expect(refusal({ src: `${at}A` })).to.equal(`its src is ${MAX_ICON_SRC_LENGTH + 1} characters, more than ${MAX_ICON_SRC_LENGTH}`);
  });

  it('refuses an icon whose other fields are malformed, rather than guess', () => {
    const src = 'https://cdn.example.com/a.png';
    expect(refusal(null)).to.equal('it is not an object');
    expect(refusal('https://cdn.example.com/a.png')).to.equal('it is not an object');
    expect(refusal({ src: 7 })).to.equal('it has no src');
    expect(refusal({ src, mimeType: 'text/html' })).to.equal('its mimeType is not an image type');
    expect(refusal({ src, mimeType: 3 })).to.equal('its mimeType is not an image type');
    expect(refusal({ src, sizes: '48x48' })).to.match(/its sizes are not/);
    expect(refusal({ src, sizes: ['48x48', 'huge'] })).to.match(/its sizes are not/);
    expect(refusal({ src, sizes: ['0x48'] })).to.match(/its sizes are not/);
    expect(refusal({ src, sizes: Array.from({ length: 9 }, () => '48x48') })).to.match(/its sizes are not up to 8/);
    expect(refusal({ src, theme: 'neon' })).to.equal("its theme is neither 'light' nor 'dark'");
  });

  it(`keeps at most ${MAX_ICONS_PER_ITEM} icons, the first good ones, and says how many it left`, () => {
    const icons = Array.from({ length: 7 }, (_, i) => ({ src: `https://cdn.example.com/${i}.png` }));
    const r = kept([{ src: 'javascript:x' }, ...icons]);
    expect(r.icons).to.deep.equal(icons.slice(0, MAX_ICONS_PER_ITEM));
    expect(r.logged.some((l) => l.includes("dropping 3 icon(s) of tool 't': at most 4 are kept"))).to.equal(true);
  });

  it('removes the field when nothing is kept, or when it is not a list', () => {
    expect(kept([{ src: 'javascript:x' }])).to.not.have.property('icons');
    const r = kept({ src: 'https://cdn.example.com/a.png' });
    expect(r).to.not.have.property('icons');
    expect(r.logged[0]).to.include("dropping the icons of tool 't': not a list");
    expect(kept(undefined)).to.deep.equal({ logged: [] });
  });
});
