import { expect } from 'chai';
import { checkLogo, LOGO_MAX_BYTES, sanitizeSvg, sniffLogoType } from '@subshare/core';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4720000000049454e44ae426082',
  'hex',
);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([30, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(18)]);
const svg = (inner: string, root = 'xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"') => `<svg ${root}>${inner}</svg>`;

/** What the browser would get: nothing that runs, fetches or changes what the elements are. */
function expectInert(output: string): void {
  for (const bad of [
    /<script/i,
    /\son[a-z]+=/i,
    /javascript:/i,
    /foreignobject/i,
    /<style/i,
    /<image/i,
    /<animate/i,
    /<set/i,
    /https?:\/\/(?!www\.w3\.org)/i,
    /\\/,
  ]) {
    expect(output).to.not.match(bad);
  }
}

describe('uploaded logos: type from the bytes, SVG from an allowlist', () => {
  it('knows PNG, WebP and SVG by their bytes, not by what they claim', () => {
    expect(sniffLogoType(PNG)).to.equal('image/png');
    expect(sniffLogoType(WEBP)).to.equal('image/webp');
    expect(sniffLogoType(Buffer.from('<?xml version="1.0"?>\n<!-- logo -->\n<svg xmlns="http://www.w3.org/2000/svg"/>'))).to.equal('image/svg+xml');
    expect(sniffLogoType(Buffer.from('<html><svg/></html>'))).to.equal(undefined);
    expect(sniffLogoType(Buffer.from('GIF89a......'))).to.equal(undefined);

    expect(checkLogo(PNG, 'image/png; charset=binary').contentType).to.equal('image/png');
    expect(() => checkLogo(PNG, 'image/svg+xml'))
      .to.throw()
      .with.property('code', 'upload_type_mismatch');
    expect(() => checkLogo(Buffer.from(svg('')), 'image/png'))
      .to.throw()
      .with.property('code', 'upload_type_mismatch');
    expect(() => checkLogo(PNG, 'image/gif'))
      .to.throw()
      .with.property('code', 'upload_type_unsupported');
    expect(() => checkLogo(Buffer.alloc(0), 'image/png'))
      .to.throw()
      .with.property('code', 'upload_empty');
    expect(() => checkLogo(Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES)]), 'image/png'))
      .to.throw()
      .with.property('code', 'upload_too_large');
  });

  it('keeps a plain logo as it is drawn', () => {
    const clean = sanitizeSvg(
      svg(
        '<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs><path d="M0 0h10v10z" fill="url(#g)"/><text x="1" y="9">A &amp; B</text>',
      ),
    );
    expect(clean.removed).to.equal(false);
    expect(clean.svg).to.contain('<path d="M0 0h10v10z" fill="url(#g)"/>');
    expect(clean.svg).to.contain('<linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient>');
    expect(clean.svg).to.contain('<text x="1" y="9">A &amp; B</text>');
    expect(clean.svg).to.contain('viewBox="0 0 10 10"');
  });

  it('takes out scripts, handlers, foreign content, external links and disguised ones', () => {
    const hostile = [
      '<script>alert(1)</script>',
      '<script xlink:href="https://evil.example/x.js"/>',
      '<rect width="1" height="1" onclick="alert(2)" ONLOAD="alert(3)"/>',
      '<a href="javascript:alert(4)"><circle r="1"/></a>',
      '<a xlink:href="&#x6a;avascript:alert(5)"><circle r="2"/></a>',
      '<use href="https://evil.example/sprite.svg#x"/>',
      '<use xlink:href="data:image/svg+xml;base64,PHN2Zz4="/>',
      '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(6)"/></div></foreignObject>',
      '<style>@import url(https://evil.example/a.css);</style>',
      '<image href="https://evil.example/pixel.png"/>',
      '<animate attributeName="href" to="javascript:alert(7)"/>',
      '<set attributeName="onmouseover" to="alert(8)"/>',
      '<rect style="fill:url(https://evil.example/track)"/>',
      '<rect fill="\\75 rl(https://evil.example/escaped)"/>',
      '<rect style="background:u\\72l(https://evil.example/escaped)"/>',
      '<g xmlns="http://www.w3.org/1999/xhtml"><rect/></g>',
      '<?xml-stylesheet href="https://evil.example/s.css"?>',
      '<![CDATA[<script>alert(9)</script>]]>',
    ].join('');
    const clean = sanitizeSvg(svg(hostile, 'xmlns="http://www.w3.org/2000/svg" onload="alert(0)"'));
    expect(clean.removed).to.equal(true);
    expectInert(clean.svg);
    expect(clean.svg).to.contain('<circle r="1"/>');
    expect(clean.svg, 'no other default namespace').to.not.contain('1999/xhtml');
    expect(clean.svg).to.contain('&lt;script&gt;alert(9)&lt;/script&gt;'); // CDATA kept as text, not markup
    expect(clean.svg).to.match(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg">/);
  });

  it('refuses what is not an SVG document, and entity declarations', () => {
    expect(() => sanitizeSvg('<html><body><svg/></body></html>'))
      .to.throw()
      .with.property('code', 'svg_invalid');
    expect(() => sanitizeSvg('<svg/><svg/>'))
      .to.throw()
      .with.property('code', 'svg_invalid');
    expect(() => sanitizeSvg('text<svg/>'))
      .to.throw()
      .with.property('code', 'svg_invalid');
    expect(() => sanitizeSvg('<!DOCTYPE svg [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><svg>&b;</svg>'))
      .to.throw()
      .with.property('code', 'svg_invalid');
    // A root in another namespace gets SVG's.
    expect(sanitizeSvg('<svg xmlns="http://www.w3.org/1999/xhtml"><rect/></svg>').svg).to.contain('<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>');
  });
});
