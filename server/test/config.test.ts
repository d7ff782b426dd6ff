import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.js';
import { repoRoot } from './helpers.js';

const siteConfigPath = join(repoRoot, 'site.config.json');
const demoSite = JSON.parse(readFileSync(siteConfigPath, 'utf8')) as Record<string, unknown>;

function writeSiteConfig(value: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'site-config-')), 'site.config.json');
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ SITE_CONFIG: siteConfigPath, ...env });
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.problems;
  }
  assert.fail('expected the configuration to be refused');
}

describe('loadConfig', () => {
  test('the defaults: port 8080, SQLite in ./data, demo content on, the committed site config', () => {
    const config = loadConfig({ SITE_CONFIG: siteConfigPath });
    assert.equal(config.port, 8080);
    assert.equal(config.host, '0.0.0.0');
    assert.deepEqual(config.database, { kind: 'sqlite', path: join(process.cwd(), 'data/site.db') });
    assert.equal(config.demoContent, true);
    assert.equal(config.adminToken, undefined);
    assert.equal(config.timeZone, 'Asia/Shanghai');
    assert.equal(config.site.productName, demoSite.productName);
    assert.equal(config.workers, availableParallelism(), 'one worker per core');
  });

  test('NODE_ENV=production turns the demo content off unless DEMO_CONTENT=1 asks for it', () => {
    assert.equal(loadConfig({ SITE_CONFIG: siteConfigPath, NODE_ENV: 'production' }).demoContent, false);
    const asked = loadConfig({ SITE_CONFIG: siteConfigPath, NODE_ENV: 'production', DEMO_CONTENT: '1' });
    assert.equal(asked.demoContent, true);
    assert.equal(loadConfig({ SITE_CONFIG: siteConfigPath, NODE_ENV: 'development' }).demoContent, true);
    assert.equal(loadConfig({ SITE_CONFIG: siteConfigPath, DEMO_CONTENT: '0' }).demoContent, false);
  });

  test('reads every environment setting', () => {
    const config = loadConfig({
      SITE_CONFIG: siteConfigPath,
      PORT: '9000',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://u:p@db.internal:5432/site',
      DEMO_CONTENT: '0',
      ADMIN_TOKEN: 'a-long-enough-admin-token-of-32-chars',
      TIME_ZONE: 'Europe/Berlin',
      PUBLIC_URL: 'https://chat.example.com/',
      TRUST_PROXY: '2',
      WORKERS: '3',
    });
    assert.equal(config.port, 9000);
    assert.equal(config.host, '127.0.0.1');
    assert.deepEqual(config.database, { kind: 'postgres', url: 'postgres://u:p@db.internal:5432/site' });
    assert.equal(config.demoContent, false);
    assert.equal(config.adminToken, 'a-long-enough-admin-token-of-32-chars');
    assert.equal(config.timeZone, 'Europe/Berlin');
    assert.equal(config.publicUrl, 'https://chat.example.com');
    assert.equal(config.trustProxy, 2);
    assert.equal(config.workers, 3);
  });

  test('names every problem at once', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://x',
      DEMO_CONTENT: 'maybe',
      ADMIN_TOKEN: 'short',
      TIME_ZONE: 'Mars/Olympus',
      PUBLIC_URL: 'ftp://x',
      TRUST_PROXY: 'some',
      LOG_LEVEL: 'loud',
      WORKERS: '0',
    });
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'DEMO_CONTENT',
      'ADMIN_TOKEN',
      'TIME_ZONE',
      'PUBLIC_URL',
      'TRUST_PROXY',
      'LOG_LEVEL',
      'WORKERS',
    ]) {
      assert.ok(
        problems.some((problem) => problem.startsWith(name)),
        `${name} missing from ${problems.join('\n')}`,
      );
    }
    assert.equal(problems.length, 9);
  });

  test('CDN_CHECK_ALLOW_ADDRESSES: addresses and CIDR ranges, anything else named in the problem', () => {
    const config = loadConfig({
      SITE_CONFIG: siteConfigPath,
      CDN_CHECK_ALLOW_ADDRESSES: '127.0.0.1, 10.0.0.0/8,fd00::/8',
    });
    assert.deepEqual(config.cdnCheckAllowAddresses, ['127.0.0.1', '10.0.0.0/8', 'fd00::/8']);
    assert.deepEqual(loadConfig({ SITE_CONFIG: siteConfigPath }).cdnCheckAllowAddresses, []);
    const problems = problemsOf({ CDN_CHECK_ALLOW_ADDRESSES: '127.0.0.1,cdn.internal,10.0.0.0/33,loopback' });
    assert.deepEqual(problems, [
      'CDN_CHECK_ALLOW_ADDRESSES must be a comma-separated list of IP addresses and CIDR ranges ' +
        '(127.0.0.1, 10.0.0.0/8, fd00::/8); not "cdn.internal", "10.0.0.0/33", "loopback"',
    ]);
  });

  test('a database password never appears in the message', () => {
    const [problem] = problemsOf({ DATABASE_URL: 'mysql://admin:s3cret@db/x' });
    assert.ok(problem !== undefined && !problem.includes('s3cret'));
  });

  test('an unreadable or non-JSON site config is a problem, not a crash', () => {
    assert.match(problemsOf({ SITE_CONFIG: '/nonexistent/site.config.json' })[0] ?? '', /cannot be read/);
    assert.match(problemsOf({ SITE_CONFIG: writeSiteConfig('{ not json') })[0] ?? '', /cannot be read as JSON/);
  });

  test('each bad site setting is named by its path', () => {
    const problems = problemsOf({
      SITE_CONFIG: writeSiteConfig({
        ...demoSite,
        productName: '',
        primaryDomain: 'https://Example.com/',
        apiAddrs: ['https://ok.example.com', 'not a url'],
        iosAppStoreId: 'abc',
        androidEdgeUrl: 'javascript:alert(1)',
        contact: [{ label: 'x', url: 'tel:1' }],
        unknownSetting: true,
        privacyUrl: undefined,
      }),
    });
    for (const path of [
      '/productName',
      '/primaryDomain',
      '/apiAddrs/1',
      '/iosAppStoreId',
      '/androidEdgeUrl',
      '/contact/0/url',
      '/unknownSetting',
      'privacyUrl',
    ]) {
      assert.ok(
        problems.some((problem) => problem.includes(path)),
        `${path} missing from:\n${problems.join('\n')}`,
      );
    }
  });
});

describe('the admin door settings', () => {
  test('ADMIN_TOKEN needs 32 characters, and the refusal says how to make one', () => {
    const [problem] = problemsOf({ ADMIN_TOKEN: 'x'.repeat(31) });
    assert.match(problem ?? '', /^ADMIN_TOKEN must be at least 32 characters long \(it has 31\)/);
    assert.match(problem ?? '', /openssl rand -hex 32/);
    assert.equal(loadConfig({ SITE_CONFIG: siteConfigPath, ADMIN_TOKEN: 'x'.repeat(32) }).adminToken, 'x'.repeat(32));
  });

  test('METRICS_TOKEN needs 32 characters too, and unset leaves metrics off', () => {
    const [problem] = problemsOf({ METRICS_TOKEN: 'm'.repeat(31) });
    assert.match(problem ?? '', /^METRICS_TOKEN must be at least 32 characters long \(it has 31\)/);
    assert.equal(
      loadConfig({ SITE_CONFIG: siteConfigPath, METRICS_TOKEN: 'm'.repeat(32) }).metricsToken,
      'm'.repeat(32),
    );
    assert.equal(loadConfig({ SITE_CONFIG: siteConfigPath, METRICS_TOKEN: '' }).metricsToken, undefined);
  });

  test('TRUST_PROXY takes a hop count or proxy addresses, never "true"', () => {
    const trust = (value: string) => loadConfig({ SITE_CONFIG: siteConfigPath, TRUST_PROXY: value }).trustProxy;
    assert.equal(trust('1'), 1);
    assert.equal(trust('0'), false);
    assert.deepEqual(trust('10.0.0.1, 192.168.0.0/16,fd00::/8,loopback'), [
      '10.0.0.1',
      '192.168.0.0/16',
      'fd00::/8',
      'loopback',
    ]);
    assert.match(problemsOf({ TRUST_PROXY: 'true' })[0] ?? '', /any client choose its own address/);
    for (const bad of ['10.0.0.1/33', '10.0.0.300', 'nginx', '10.0.0.0/8/1', '::1/129']) {
      assert.match(problemsOf({ TRUST_PROXY: bad })[0] ?? '', /^TRUST_PROXY must be the number of proxies/, bad);
    }
  });
});

describe('file storage settings', () => {
  test('the default is a directory beside the default database; packages up to 2 GiB', () => {
    const config = loadConfig({ SITE_CONFIG: siteConfigPath });
    assert.deepEqual(config.storage, { kind: 'file', dir: join(process.cwd(), 'data/files') });
    assert.equal(config.packageMaxBytes, 2 * 1024 * 1024 * 1024);
    assert.equal(config.uploadMaxBytes, 5 * 1024 * 1024);
  });

  test('FILES_ACCEL_REDIRECT: off by default; a path ending in /, over a directory or an S3 store', () => {
    assert.equal(loadConfig({ SITE_CONFIG: siteConfigPath }).filesAccelRedirect, undefined);
    const on = loadConfig({ SITE_CONFIG: siteConfigPath, FILES_ACCEL_REDIRECT: '/internal-files/' });
    assert.equal(on.filesAccelRedirect, '/internal-files/');
    const s3 = { STORAGE_URL: 's3://chat-files/site' };
    const onS3 = loadConfig({ SITE_CONFIG: siteConfigPath, ...s3, FILES_ACCEL_REDIRECT: '/internal-s3/' });
    assert.equal(onS3.filesAccelRedirect, '/internal-s3/');
    for (const bad of ['internal-files/', '/internal-files', '/a b/', '/../', '/x?y/', 'http://nginx/files/']) {
      assert.match(problemsOf({ FILES_ACCEL_REDIRECT: bad }).join('\n'), /FILES_ACCEL_REDIRECT must be a path/, bad);
      assert.match(problemsOf({ ...s3, FILES_ACCEL_REDIRECT: bad }).join('\n'), /must be a path/, `s3 ${bad}`);
    }
  });

  test('FILES_ACCEL_REDIRECT: deploy/nginx.conf’s location for the other store is refused, naming the right one', () => {
    assert.deepEqual(problemsOf({ STORAGE_URL: 's3://chat-files', FILES_ACCEL_REDIRECT: '/internal-files/' }), [
      "FILES_ACCEL_REDIRECT=/internal-files/ is the proxy's location over a directory (deploy/nginx.conf); " +
        'with STORAGE_URL=s3:// use /internal-s3/',
    ]);
    assert.deepEqual(problemsOf({ STORAGE_URL: 'file:/srv/files', FILES_ACCEL_REDIRECT: '/internal-s3/' }), [
      "FILES_ACCEL_REDIRECT=/internal-s3/ is the proxy's location over an S3 store (deploy/nginx.conf); " +
        'with STORAGE_URL=file: use /internal-files/',
    ]);
    // Reported with every other problem at once.
    const both = problemsOf({ STORAGE_URL: 's3://Bad_Bucket', FILES_ACCEL_REDIRECT: '/internal-files/' });
    assert.equal(both.length, 2, both.join('\n'));
  });

  test('an S3 bucket with a prefix, an endpoint, path style and keys', () => {
    const config = loadConfig({
      SITE_CONFIG: siteConfigPath,
      STORAGE_URL: 's3://chat-files/site/one/',
      S3_ENDPOINT: 'https://oss-cn-hangzhou.aliyuncs.com',
      S3_FORCE_PATH_STYLE: '1',
      AWS_REGION: 'cn-hangzhou',
      AWS_ACCESS_KEY_ID: 'id',
      AWS_SECRET_ACCESS_KEY: 'secret',
      PACKAGE_MAX_BYTES: '1048576',
    });
    assert.deepEqual(config.storage, {
      kind: 's3',
      bucket: 'chat-files',
      prefix: 'site/one/',
      endpoint: 'https://oss-cn-hangzhou.aliyuncs.com',
      forcePathStyle: true,
      region: 'cn-hangzhou',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    });
    assert.equal(config.packageMaxBytes, 1048576);
    const bare = loadConfig({ SITE_CONFIG: siteConfigPath, STORAGE_URL: 's3://chat-files' });
    assert.deepEqual(bare.storage, {
      kind: 's3',
      bucket: 'chat-files',
      prefix: '',
      endpoint: undefined,
      forcePathStyle: false,
      region: 'us-east-1',
      credentials: undefined,
    });
  });

  test('every bad storage setting is named', () => {
    const s3 = problemsOf({
      STORAGE_URL: 's3://Bad_Bucket/ok/../x',
      S3_ENDPOINT: 'oss.example.com',
      S3_FORCE_PATH_STYLE: 'maybe',
      AWS_ACCESS_KEY_ID: 'id',
      PACKAGE_MAX_BYTES: '6000000000000',
    });
    for (const pattern of [
      /bucket must be/,
      /prefix must be/,
      /S3_ENDPOINT must be an http\(s\) URL/,
      /S3_FORCE_PATH_STYLE must be 1 or 0/,
      /AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together/,
      /PACKAGE_MAX_BYTES must be a whole number/,
    ]) {
      assert.ok(
        s3.some((problem) => pattern.test(problem)),
        `${pattern} in ${s3.join(' | ')}`,
      );
    }
    assert.match(problemsOf({ STORAGE_URL: 'ftp://files' }).join(), /STORAGE_URL must be file:<directory> or s3:\/\//);
    assert.match(problemsOf({ STORAGE_URL: 'file:' }).join(), /needs a directory/);
    assert.match(problemsOf({ S3_ENDPOINT: 'https://s3.example.com' }).join(), /S3_ENDPOINT needs STORAGE_URL=s3/);
  });
});
