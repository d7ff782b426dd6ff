/**
 * The deployment files pass their own tools, as they are (docs/deploy.md#compose):
 * deploy/compose.yaml through `docker-compose config` (offline, with deploy/.env.example) and the
 * compose linter dclint, and deploy/nginx.conf through `nginx -t` with its upstream names
 * resolvable (a private /etc/hosts in a mount namespace of its own). Each check is skipped, with
 * the reason, only where its tool is missing or it needs root and this is not.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { repoRoot } from './support.js';

const deploy = join(repoRoot, 'deploy');
const envExample = join(deploy, '.env.example');
const dockerCompose = '/usr/bin/docker-compose';
const dclint = join(repoRoot, 'node_modules/.bin/dclint');
const nginx = '/usr/sbin/nginx';
const root = process.getuid?.() === 0;
const scratch = mkdtempSync(join(tmpdir(), 'chat-site-deploy-files-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const missing = (path: string, what: string) => (existsSync(path) ? false : `${what} is not installed (${path})`);

function compose(envFile: string, ...args: string[]) {
  return spawnSync(dockerCompose, ['--env-file', envFile, '-f', join(deploy, 'compose.yaml'), ...args], {
    encoding: 'utf8',
    cwd: scratch,
  });
}

interface Service {
  image?: string;
  build?: unknown;
  environment?: Record<string, string>;
  ports?: (string | { host_ip?: string; published?: number | string; target?: number })[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[] };
}

/** The file as compose resolves it with `envFile` (compose prints YAML; its own Python reads it). */
function resolved(envFile: string): Record<string, Service> {
  const config = compose(envFile, 'config');
  assert.equal(config.status, 0, config.stderr);
  const json = spawnSync(
    'python3',
    ['-c', 'import json, sys, yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout)'],
    {
      input: config.stdout,
      encoding: 'utf8',
    },
  );
  assert.equal(json.status, 0, json.stderr);
  return (JSON.parse(json.stdout) as { services: Record<string, Service> }).services;
}

/** A published port as `address:port:target`: docker-compose 1.29 prints the short form
 * (`127.0.0.1:8080:80/tcp`), Compose 2 the long one. */
function publishedAs(port: NonNullable<Service['ports']>[number]): string {
  if (typeof port === 'string') return port.replace(/\/tcp$/, '');
  return `${port.host_ip ?? ''}:${port.published ?? ''}:${port.target ?? ''}`;
}

/** deploy/.env.example's settings, in order. */
function exampleSettings(): [string, string][] {
  return readFileSync(envExample, 'utf8')
    .split('\n')
    .filter((line) => /^[A-Z0-9_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]);
}

describe('deploy/compose.yaml', { skip: missing(dockerCompose, 'docker-compose') }, () => {
  test('docker-compose config -q accepts it with deploy/.env.example, offline', () => {
    const checked = compose(envExample, 'config', '-q');
    assert.equal(checked.status, 0, checked.stderr);
    assert.equal(checked.stderr, '');
  });

  test('every secret comes from the .env file: without one, compose refuses and names it', () => {
    const secrets = exampleSettings().filter(([, value]) => value.startsWith('change-me'));
    assert.deepEqual(secrets.map(([name]) => name).sort(), [
      'ADMIN_TOKEN',
      'MINIO_ROOT_PASSWORD',
      'POSTGRES_PASSWORD',
      'SITE_S3_SECRET_KEY',
    ]);
    for (const [name] of secrets) {
      const envFile = join(scratch, `without-${name}.env`);
      writeFileSync(envFile, readFileSync(envExample, 'utf8').replace(new RegExp(`^${name}=.*$`, 'm'), ''));
      const refused = compose(envFile, 'config', '-q');
      assert.notEqual(refused.status, 0, `${name} left out`);
      assert.match(refused.stderr, new RegExp(name), refused.stderr);
    }
  });

  test('deploy/new-env.sh makes a .env with a random value of its own for every secret', () => {
    const envFile = join(scratch, 'generated.env');
    const made = spawnSync('sh', [join(deploy, 'new-env.sh'), envFile], { encoding: 'utf8' });
    assert.equal(made.status, 0, made.stderr);
    assert.equal(statSync(envFile).mode & 0o777, 0o600);
    const secrets = readFileSync(envFile, 'utf8')
      .split('\n')
      .filter((line) => /^(POSTGRES_PASSWORD|MINIO_ROOT_PASSWORD|SITE_S3_SECRET_KEY|ADMIN_TOKEN)=/.test(line))
      .map((line) => line.slice(line.indexOf('=') + 1));
    assert.equal(secrets.length, 4);
    for (const secret of secrets) assert.match(secret, /^[0-9a-f]{40}$/);
    assert.equal(new Set(secrets).size, 4);
    assert.equal(compose(envFile, 'config', '-q').status, 0);
    const again = spawnSync('sh', [join(deploy, 'new-env.sh'), envFile], { encoding: 'utf8' });
    assert.notEqual(again.status, 0, 'an existing .env is never replaced');
    assert.match(again.stderr, /exists/);
  });

  test('MinIO images pinned by release and digest; the site published on 127.0.0.1 only', () => {
    const services = resolved(envExample);
    for (const name of ['minio', 'minio-init']) {
      assert.match(services[name]?.image ?? '', /^quay\.io\/minio\/[a-z]+:RELEASE\.[0-9TZ-]+@sha256:[0-9a-f]{64}$/);
    }
    for (const [name, service] of Object.entries(services)) {
      if (service.build === undefined) assert.match(service.image ?? '', /:[^/]+$/, `${name} names a tag`);
      for (const port of service.ports ?? []) assert.match(publishedAs(port), /^127\.0\.0\.1:/, name);
    }
    assert.deepEqual(services.nginx?.ports?.map(publishedAs), ['127.0.0.1:8080:80']);
  });

  test('the sites use a MinIO user of their own, not the root credentials', () => {
    const services = resolved(envExample);
    const settings = new Map(exampleSettings());
    for (const name of ['site-a', 'site-b']) {
      const env = services[name]?.environment ?? {};
      assert.equal(env.AWS_ACCESS_KEY_ID, settings.get('SITE_S3_ACCESS_KEY') ?? 'chat-site');
      assert.equal(env.AWS_SECRET_ACCESS_KEY, settings.get('SITE_S3_SECRET_KEY'));
      assert.notEqual(env.AWS_ACCESS_KEY_ID, services.minio?.environment?.MINIO_ROOT_USER);
      assert.notEqual(env.AWS_SECRET_ACCESS_KEY, services.minio?.environment?.MINIO_ROOT_PASSWORD);
    }
  });

  test('minio-init’s script parses, and its policy allows the bucket chat-site and nothing else', () => {
    const parsed = spawnSync('sh', ['-n', join(deploy, 'minio/init.sh')], { encoding: 'utf8' });
    assert.equal(parsed.status, 0, parsed.stderr);
    const policy = JSON.parse(readFileSync(join(deploy, 'minio/site-policy.json'), 'utf8')) as {
      Statement: { Effect: string; Action: string[]; Resource: string[] }[];
    };
    for (const statement of policy.Statement) {
      assert.equal(statement.Effect, 'Allow');
      for (const action of statement.Action) assert.match(action, /^s3:[A-Z][A-Za-z]+$/, 'no wildcard, no admin');
      for (const resource of statement.Resource) assert.match(resource, /^arn:aws:s3:::chat-site(\/\*)?$/);
    }
  });

  test('each service waits for what it needs to be healthy, or done for the init job', () => {
    const services = resolved(envExample);
    const waits = (name: string) =>
      Object.fromEntries(
        Object.entries(services[name]?.depends_on ?? {}).map(([on, { condition }]) => [on, condition]),
      );
    const healthy = 'service_healthy';
    assert.deepEqual(waits('nginx'), { 'site-a': healthy, 'site-b': healthy });
    for (const site of ['site-a', 'site-b']) {
      assert.deepEqual(waits(site), {
        postgres: healthy,
        minio: healthy,
        'minio-init': 'service_completed_successfully',
      });
    }
    assert.deepEqual(waits('minio-init'), { minio: healthy });
    for (const name of ['site-a', 'site-b', 'postgres', 'minio']) {
      assert.ok((services[name]?.healthcheck?.test ?? []).length > 1, `${name} has a healthcheck`);
    }
  });
});

describe('the compose linter', { skip: missing(dclint, 'dclint (npm ci)') }, () => {
  test('dclint finds no problem in deploy/compose.yaml, not even a warning', () => {
    const linted = spawnSync(dclint, [join(deploy, 'compose.yaml'), '--max-warnings', '0', '--color', 'false'], {
      encoding: 'utf8',
    });
    assert.equal(linted.status, 0, linted.stdout + linted.stderr);
  });
});

describe('deploy/nginx.conf', () => {
  const skip = root
    ? missing(nginx, 'nginx') || missing('/usr/bin/unshare', 'unshare')
    : 'needs root (unshare --mount)';
  test('nginx -t accepts it as it is, its upstream names in a private /etc/hosts', { skip }, () => {
    const dir = mkdtempSync(join(scratch, 'nginx-'));
    writeFileSync(join(dir, 'hosts'), '127.0.0.1 localhost\n127.0.0.1 site-a\n127.0.0.1 site-b\n127.0.0.1 minio\n');
    // What the nginx image's own nginx.conf holds around conf.d (as deploy-check.sh's wrapper).
    writeFileSync(
      join(dir, 'nginx.conf'),
      `pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
    client_body_temp_path ${dir}/client_body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    access_log ${dir}/access.log;
    include ${join(deploy, 'nginx.conf')};
}
`,
    );
    const checked = spawnSync(
      'unshare',
      [
        '--mount',
        '--',
        'sh',
        '-c',
        'mount --bind "$1/hosts" /etc/hosts && exec "$2" -t -p "$1" -e "$1/error.log" -c "$1/nginx.conf"',
        'sh',
        dir,
        nginx,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(checked.status, 0, checked.stderr);
    assert.match(checked.stderr, /test is successful/);
    assert.doesNotMatch(checked.stderr, /\[(warn|emerg)\]/);
  });
});
