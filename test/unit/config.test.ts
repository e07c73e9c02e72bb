import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '@subshare/core';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'subshare-config-'));

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    return (error as Error).message;
  }
  return expect.fail('the configuration was accepted');
}

describe('configuration', () => {
  it('has a safe default for everything in demo mode and generates secrets once', () => {
    const dir = tmp();
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.mode).to.equal('demo');
    expect(first.port).to.equal(3000);
    expect(first.host).to.equal('127.0.0.1');
    expect(first.publicUrl).to.equal('http://127.0.0.1:3000');
    expect(first.mail.from).to.equal('subshare <no-reply@localhost>');
    expect(first.mailbox.domain).to.equal('mail.localhost');
    expect(first.credentialsKey).to.have.length(32);
    const secrets = path.join(dir, 'secrets.json');
    expect(existsSync(secrets)).to.equal(true);
    expect(statSync(secrets).mode & 0o777).to.equal(0o600);

    const second = loadConfig({ DATA_DIR: dir });
    expect(second.credentialsKey.equals(first.credentialsKey)).to.equal(true);
    expect(second.tokenSecret.equals(first.tokenSecret)).to.equal(true);
    expect(readFileSync(secrets, 'utf8')).to.contain('CREDENTIALS_KEY');
  });

  it('derives PUBLIC_URL from PORT and keeps the names of product.md', () => {
    const config = loadConfig({ DATA_DIR: tmp(), PORT: '4100', BUSINESS_NAME: 'Acme Shares', SUPPORT_EMAIL: 'Help@Acme.test' });
    expect(config.publicUrl).to.equal('http://127.0.0.1:4100');
    expect(config.business.name).to.equal('Acme Shares');
    expect(config.business.supportEmail).to.equal('help@acme.test');
  });

  it('fails with one line naming a malformed variable', () => {
    expect(configError({ DATA_DIR: tmp(), PORT: 'eighty' })).to.equal('Invalid configuration: PORT must be a port number from 1 to 65535 (got "eighty")');
    expect(configError({ DATA_DIR: tmp(), SMTP_URL: 'http://mail' })).to.match(/^Invalid configuration: SMTP_URL must start with smtp: or smtps:/);
    expect(configError({ DATA_DIR: tmp(), DATABASE_URL: 'mysql://x' })).to.match(/^Invalid configuration: DATABASE_URL/);
    expect(configError({ DATA_DIR: tmp(), STRIPE_SECRET_KEY: 'sk_test_1' })).to.equal(
      'Invalid configuration: STRIPE_WEBHOOK_SECRET must be set together with STRIPE_SECRET_KEY',
    );
  });

  it('MAIL_DNS_SERVERS: host:port entries for the DKIM/DMARC lookups; unset, the system’s; MAIL_AUTHSERV_ID as given', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).mailbox)
      .to.include({ authservId: undefined })
      .and.to.deep.include({ dnsServers: [] });
    const config = loadConfig({ DATA_DIR: tmp(), MAIL_DNS_SERVERS: '127.0.0.1:5353, [::1]:53,dns.example', MAIL_AUTHSERV_ID: 'mx.example.com' });
    expect(config.mailbox.dnsServers).to.deep.equal(['127.0.0.1:5353', '[::1]:53', 'dns.example']);
    expect(config.mailbox.authservId).to.equal('mx.example.com');
    expect(configError({ DATA_DIR: tmp(), MAIL_DNS_SERVERS: 'udp://1.1.1.1' })).to.match(
      /^Invalid configuration: MAIL_DNS_SERVERS must be comma-separated host:port entries/,
    );
  });

  it('reports every problem at once, one line each, and leaves DATA_DIR untouched', () => {
    const dir = tmp();
    const message = configError({
      DATA_DIR: dir,
      PORT: 'eighty',
      SMTP_URL: 'http://mail',
      STRIPE_SECRET_KEY: 'sk_test_1',
      ADMIN_EMAIL: 'not-an-address',
      ADMIN_PASSWORD: 'short',
      MAILBOX_IMAP_IDLE: 'maybe',
      MAILBOX_IMAP_TIMEOUT_SECONDS: '0',
      CREDENTIALS_KEY: 'too-short-key',
    });
    expect(message.split('\n')).to.have.members([
      'Invalid configuration: PORT must be a port number from 1 to 65535 (got "eighty")',
      'Invalid configuration: SMTP_URL must start with smtp: or smtps:',
      'Invalid configuration: STRIPE_WEBHOOK_SECRET must be set together with STRIPE_SECRET_KEY',
      'Invalid configuration: ADMIN_EMAIL must be an e-mail address (got "not-an-address")',
      'Invalid configuration: ADMIN_PASSWORD must be 8 to 18 characters long',
      'Invalid configuration: MAILBOX_IMAP_IDLE must be true or false (got "maybe")',
      'Invalid configuration: MAILBOX_IMAP_TIMEOUT_SECONDS must be a whole number of seconds from 1 to 60 (got "0")',
      'Invalid configuration: CREDENTIALS_KEY must be 32 bytes, as 64 hex digits or base64',
    ]);
    expect(message).to.not.contain('short"').and.not.contain('too-short-key');
    // A start that fails on a typo generates no demo secrets.
    expect(existsSync(path.join(dir, 'secrets.json'))).to.equal(false);
  });

  it('in production mode requires the secrets and never echoes them', () => {
    const message = configError({ DATABASE_URL: 'postgres://u:p@db.example:5432/shop' });
    expect(message.split('\n')).to.deep.equal([
      'Invalid configuration: STRIPE_SECRET_KEY or COINPAL_MERCHANT_NO or PAYSSION_API_KEY is required when DATABASE_URL is set (or set ALLOW_DEMO_PAYMENTS=true to sell through the demo provider)',
      'Invalid configuration: CREDENTIALS_KEY is required when DATABASE_URL is set',
      'Invalid configuration: TOKEN_SECRET is required when DATABASE_URL is set',
    ]);
    const badKey = configError({
      DATABASE_URL: 'postgres://u:p@db.example:5432/shop',
      CREDENTIALS_KEY: 'short-secret-value',
      TOKEN_SECRET: 'x'.repeat(40),
      ALLOW_DEMO_PAYMENTS: 'true',
    });
    expect(badKey).to.equal('Invalid configuration: CREDENTIALS_KEY must be 32 bytes, as 64 hex digits or base64');
    expect(badKey).to.not.contain('short-secret-value');
  });

  it('production mode refuses to sell through the demo provider unless allowed', () => {
    const base = { DATABASE_URL: 'postgres://u:p@db.example:5432/shop', DATA_DIR: tmp(), CREDENTIALS_KEY: 'ab'.repeat(32), TOKEN_SECRET: 'y'.repeat(48) };
    expect(configError(base)).to.match(/^Invalid configuration: STRIPE_SECRET_KEY or COINPAL_MERCHANT_NO or PAYSSION_API_KEY is required/);
    expect(loadConfig({ ...base, ALLOW_DEMO_PAYMENTS: 'true' }).allowDemoPayments).to.equal(true);
    expect(loadConfig({ ...base, PAYSSION_API_KEY: 'k', PAYSSION_SECRET_KEY: 's' }).allowDemoPayments).to.equal(false);
  });

  it('production mode with everything set loads without touching DATA_DIR secrets', () => {
    const dir = tmp();
    const config = loadConfig({
      DATABASE_URL: 'postgres://u:p@db.example:5432/shop',
      DATA_DIR: dir,
      CREDENTIALS_KEY: 'ab'.repeat(32),
      TOKEN_SECRET: 'y'.repeat(48),
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
    });
    expect(config.mode).to.equal('production');
    expect(config.allowDemoPayments).to.equal(false);
    expect(existsSync(path.join(dir, 'secrets.json'))).to.equal(false);
  });
});
