import { expect } from 'chai';
import { escapeHtml } from '@subshare/core';

describe('escapeHtml (the one escaping of pages, sitemap, demo checkout and e-mails)', () => {
  it('escapes the five special characters and nothing else', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).to.equal('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;');
    expect(escapeHtml('한국어 · plain text')).to.equal('한국어 · plain text');
  });

  it('escapes an ampersand once, and takes numbers', () => {
    expect(escapeHtml('&amp;')).to.equal('&amp;amp;');
    expect(escapeHtml(42)).to.equal('42');
  });
});
