import { expect } from 'chai';
import { readFileSync } from 'node:fs';
// @ts-expect-error plain JavaScript (it must parse on any Node), without type declarations
import { MINIMUM_NODE, nodeVersionProblem } from '../../packages/cli/bin/check-node.js';

describe('the Node.js version check of every entry point', () => {
  it('names the version needed on an older Node, and lets 20.19+, 22 and 24 through', () => {
    expect(nodeVersionProblem('18.20.4')).to.equal('subshare needs Node.js 20.19.0 or newer (20.19+, 22 or 24 LTS); this is Node.js 18.20.4.');
    expect(nodeVersionProblem('20.18.3')).to.contain('needs Node.js 20.19.0');
    for (const version of ['20.19.0', '20.20.2', '22.0.0', '22.18.0', '24.21.0', '25.1.0']) expect(nodeVersionProblem(version), version).to.equal(undefined);
  });

  it('says what package.json engines says', () => {
    const { engines } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
    expect(engines.node).to.equal(`>=${MINIMUM_NODE}`);
  });
});
