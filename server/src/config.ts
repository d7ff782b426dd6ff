/**
 * Every setting of the server, read and validated once at start-up. A bad setting stops the
 * server with one message that names every problem, not just the first.
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import type { SiteConfig } from '@chat-site/contract';
import { siteConfigProblems } from './lib/site-config-check.js';
import { readPublicKey, type MinisignKey } from './lib/minisign.js';
import { localTimeName } from './lib/time.js';
import { repoRoot } from './paths.js';

export type DatabaseTarget = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/** Where hosted files live (docs/storage.md). */
export type StorageTarget =
  | { kind: 'file'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      /** Prepended to every object key: empty, or ends with a slash. */
      prefix: string;
      endpoint: string | undefined;
      forcePathStyle: boolean;
      region: string;
      /** Both or neither; with neither the SDK finds credentials its own way (roles, profiles). */
      credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
    };

/** What the server and the command line need to store files. */
export interface FileSettings {
  storage: StorageTarget;
  /** Largest image upload. */
  uploadMaxBytes: number;
  /** Largest install package upload. */
  packageMaxBytes: number;
}

export interface ServerConfig {
  port: number;
  host: string;
  database: DatabaseTarget;
  demoContent: boolean;
  /** NODE_ENV=production: a real site's start, which warns of what it lacks (serving.ts). */
  production: boolean;
  site: SiteConfig;
  siteConfigPath: string;
  adminToken: string | undefined;
  /** Enables /metrics for scrapers that send it as a bearer token (docs/monitoring.md#metrics). */
  metricsToken: string | undefined;
  /** The Tauri updater's public key: publishing checks release signatures with it
   * (docs/releases.md#tauri-signatures). */
  tauriPublicKey: MinisignKey | undefined;
  timeZone: string;
  publicUrl: string | undefined;
  /** Proxies in front whose X-Forwarded-For is believed: how many hops, or their addresses. */
  trustProxy: false | number | string[];
  logLevel: string;
  webRoot: string;
  /** The built operator console, served at /admin (console/dist). */
  consoleRoot: string;
  shutdownTimeoutMs: number;
  uploadMaxBytes: number;
  packageMaxBytes: number;
  storage: StorageTarget;
  /** The proxy's internal location over the file store (a directory, or S3 through presigned
   * URLs): hosted files are answered with X-Accel-Redirect to it, for the proxy to send
   * (docs/storage.md#nginx-sends-the-files). */
  filesAccelRedirect: string | undefined;
  /** Longest a client may take to send a whole request, headers and body; then 408. */
  requestTimeoutMs: number;
  /** Longest a client may take to send a request's headers; then 408. At most requestTimeoutMs. */
  headersTimeoutMs: number;
  /** Failed admin token attempts one client may make per window before it is locked out; and
   * password checks per account from one client (docs/console.md#sign-in-limits). */
  adminMaxFailures: number;
  /** Password checks per client, all accounts together, and per account, all clients together. */
  adminClientMaxFailures: number;
  adminAccountMaxFailures: number;
  adminFailureWindowMs: number;
  /** The operator says visitors reach the site over HTTPS: send HSTS. */
  behindTls: boolean;
  /** Memory for ready-made public API answers; 0 answers every read from the database. */
  readCacheMaxBytes: number;
  /** New connections are read by pipeline/replay-connections.ts first; false leaves every byte to
   * Node's HTTP parser (docs/architecture.md#replays-on-the-socket). */
  socketReplays: boolean;
  /** Start the share pictures' thread as the server listens, so that the first picture does not
   * wait for satori and resvg to load (docs/scaling.md#share-pictures); false starts it at the
   * first picture. */
  sharePicturesWarm: boolean;
  /** A server process quiet this long gives back what its heap grew by (lib/idle-trim.ts); 0: never. */
  idleTrimMs: number;
  /** Where resumable uploads are kept while they come in (docs/releases.md#resumable-uploads). */
  uploadDir: string;
  /** An unfinished resumable upload is removed this long after it was started. */
  uploadExpiryMs: number;
  /** A console session ends after this long without a request, and this long after sign-in. */
  adminSessionIdleMs: number;
  adminSessionMaxMs: number;
  /** Addresses and CIDR ranges the admin CDN check may reach though they are not public
   * (docs/admin-api.md#checking-the-cdn). */
  cdnCheckAllowAddresses: string[];
  /** Server processes answering on the port, each with its own read cache; 1 runs no supervisor. */
  workers: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Wire timestamps are wall-clock times in this zone unless TIME_ZONE says otherwise. */
export const defaultTimeZone = 'Asia/Shanghai';

const defaultDatabaseUrl = 'sqlite:./data/site.db';
/** Long enough that guessing it is hopeless even without the failure limit. */
export const minAdminTokenLength = 32;
const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): ServerConfig {
  const problems: string[] = [];
  const int = (name: string, fallback: number, min: number, max: number): number =>
    wholeNumber(env, name, fallback, min, max, problems);
  const flag = (name: string, fallback: boolean): boolean => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (['1', 'true', 'yes'].includes(raw)) return true;
    if (['0', 'false', 'no'].includes(raw)) return false;
    problems.push(`${name} must be 1 or 0, got "${raw}"`);
    return fallback;
  };

  const siteConfigPath = resolve(env.SITE_CONFIG || './site.config.json');
  const requestTimeoutMs = int('REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000);
  const adminMaxFailures = int('ADMIN_MAX_FAILURES', 10, 1, 1_000_000);
  const config: ServerConfig = {
    port: int('PORT', 8080, 0, 65535),
    host: env.HOST || '0.0.0.0',
    database: parseDatabaseUrl(env.DATABASE_URL || defaultDatabaseUrl, problems),
    // A production start must never fill a real site's empty database with demo announcements;
    // a development start (README's first command) shows the demo site
    // (docs/configuration.md#environment).
    demoContent: flag('DEMO_CONTENT', env.NODE_ENV !== 'production'),
    production: env.NODE_ENV === 'production',
    site: readSiteConfig(siteConfigPath, problems),
    siteConfigPath,
    adminToken: env.ADMIN_TOKEN || undefined,
    metricsToken: env.METRICS_TOKEN || undefined,
    tauriPublicKey: parseTauriKey(env.TAURI_PUBLIC_KEY, problems),
    timeZone: env.TIME_ZONE || defaultTimeZone,
    publicUrl: env.PUBLIC_URL ? env.PUBLIC_URL.replace(/\/+$/, '') : undefined,
    trustProxy: parseTrustProxy(env.TRUST_PROXY, problems),
    logLevel: env.LOG_LEVEL || 'info',
    webRoot: resolve(env.WEB_ROOT || resolve(repoRoot, 'web/dist')),
    consoleRoot: resolve(env.CONSOLE_ROOT || resolve(repoRoot, 'console/dist')),
    shutdownTimeoutMs: int('SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    ...parseFileSettings(env, problems),
    filesAccelRedirect: env.FILES_ACCEL_REDIRECT || undefined,
    behindTls: flag('BEHIND_TLS', false),
    uploadDir: '',
    uploadExpiryMs: int('UPLOAD_EXPIRY_HOURS', 24, 1, 30 * 24) * 3_600_000,
    requestTimeoutMs,
    headersTimeoutMs: int('HEADERS_TIMEOUT_MS', Math.min(10_000, requestTimeoutMs), 100, 3_600_000),
    adminMaxFailures,
    adminClientMaxFailures: int('ADMIN_CLIENT_MAX_FAILURES', 3 * adminMaxFailures, 1, 1_000_000),
    adminAccountMaxFailures: int('ADMIN_ACCOUNT_MAX_FAILURES', 10 * adminMaxFailures, 1, 1_000_000),
    adminFailureWindowMs: int('ADMIN_FAILURE_WINDOW_MS', 15 * 60_000, 1000, 86_400_000),
    readCacheMaxBytes: int('READ_CACHE_MAX_BYTES', 32 * 1024 * 1024, 0, 4 * 1024 * 1024 * 1024),
    socketReplays: flag('SOCKET_REPLAYS', true),
    sharePicturesWarm: flag('SHARE_PICTURES_WARM', true),
    idleTrimMs: int('IDLE_TRIM_SECONDS', 60, 0, 86_400) * 1000,
    adminSessionIdleMs: int('ADMIN_SESSION_IDLE_MINUTES', 60, 1, 24 * 60) * 60_000,
    adminSessionMaxMs: int('ADMIN_SESSION_HOURS', 12, 1, 30 * 24) * 3_600_000,
    workers: int('WORKERS', availableParallelism(), 1, 256),
    cdnCheckAllowAddresses: parseCdnCheckAllowAddresses(env.CDN_CHECK_ALLOW_ADDRESSES, problems),
  };

  // Beside the hosted files when they are on this disk (same file system: no copy across disks),
  // else under ./data.
  config.uploadDir = resolve(
    env.UPLOAD_DIR || (config.storage.kind === 'file' ? join(config.storage.dir, '.uploads') : './data/uploads'),
  );
  if (config.adminToken !== undefined && config.adminToken.length < minAdminTokenLength) {
    problems.push(
      `ADMIN_TOKEN must be at least ${minAdminTokenLength} characters long (it has ${config.adminToken.length}); ` +
        'make one with: openssl rand -hex 32',
    );
  }
  if (config.metricsToken !== undefined && config.metricsToken.length < minAdminTokenLength) {
    problems.push(
      `METRICS_TOKEN must be at least ${minAdminTokenLength} characters long (it has ${config.metricsToken.length}); ` +
        'make one with: openssl rand -hex 32',
    );
  }
  if (config.headersTimeoutMs > config.requestTimeoutMs) {
    problems.push(
      `HEADERS_TIMEOUT_MS (${config.headersTimeoutMs}) must not be longer than REQUEST_TIMEOUT_MS (${config.requestTimeoutMs})`,
    );
  }
  checkAccelRedirect(config, problems);
  if (!isTimeZone(config.timeZone)) problems.push(`TIME_ZONE "${config.timeZone}" is not a known IANA time zone`);
  if (config.publicUrl !== undefined && !isHttpUrl(config.publicUrl)) {
    problems.push(`PUBLIC_URL must be an http(s) URL, got "${config.publicUrl}"`);
  }
  if (!logLevels.includes(config.logLevel)) {
    problems.push(`LOG_LEVEL must be one of ${logLevels.join(', ')}, got "${config.logLevel}"`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** Just the database, read the way the server reads it: for the operator's command line, which
 * needs neither the site config nor an admin token. */
export function loadDatabaseTarget(env: Env = process.env): DatabaseTarget {
  const problems: string[] = [];
  const target = parseDatabaseUrl(env.DATABASE_URL || defaultDatabaseUrl, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return target;
}

/** The file storage settings alone, read the way the server reads them: for the command line. */
export function loadFileSettings(env: Env = process.env): FileSettings {
  const problems: string[] = [];
  const settings = parseFileSettings(env, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return settings;
}

const defaultStorageUrl = 'file:./data/files';
const gib = 1024 * 1024 * 1024;

function parseFileSettings(env: Env, problems: string[]): FileSettings {
  return {
    storage: parseStorageUrl(env, problems),
    uploadMaxBytes: wholeNumber(env, 'UPLOAD_MAX_BYTES', 5 * 1024 * 1024, 1024, 100 * 1024 * 1024, problems),
    // A single S3 CopyObject (how an upload is moved to its final key) takes at most 5 GiB.
    packageMaxBytes: wholeNumber(env, 'PACKAGE_MAX_BYTES', 2 * gib, 1024, 5 * gib, problems),
  };
}

function wholeNumber(env: Env, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    problems.push(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
    return fallback;
  }
  return value;
}

/** A path of its own in the proxy: below it go the file keys over a directory the proxy reads, or
 * the presigned path and query of an S3 object (docs/storage.md#nginx-sends-the-files). The
 * recommended nginx's two locations are not interchangeable: each one's path with the other store
 * would be nginx's 404 for every download, so it is refused here. */
function checkAccelRedirect({ filesAccelRedirect: prefix, storage }: ServerConfig, problems: string[]): void {
  if (prefix === undefined) return;
  if (!/^\/([A-Za-z0-9._~-]+\/)+$/.test(prefix) || prefix.split('/').some((part) => /^\.+$/.test(part))) {
    problems.push(
      `FILES_ACCEL_REDIRECT must be a path that starts and ends with /, like /internal-files/, got "${prefix}"`,
    );
  }
  const [mine, other] = storage.kind === 'file' ? accelLocations : [...accelLocations].reverse();
  if (prefix === other) {
    problems.push(
      `FILES_ACCEL_REDIRECT=${other} is the proxy's location over ${storage.kind === 'file' ? 'an S3 store' : 'a directory'}` +
        ` (deploy/nginx.conf); with STORAGE_URL=${storage.kind === 'file' ? 'file:' : 's3://'} use ${mine}`,
    );
  }
}

/** deploy/nginx.conf's internal locations: over a directory store, over an S3 store. */
const accelLocations = ['/internal-files/', '/internal-s3/'] as const;

function parseStorageUrl(env: Env, problems: string[]): StorageTarget {
  const raw = env.STORAGE_URL || defaultStorageUrl;
  const s3Settings = ['S3_ENDPOINT', 'S3_FORCE_PATH_STYLE'].filter((name) => (env[name] ?? '') !== '');
  if (raw.startsWith('file:')) {
    const dir = raw.slice('file:'.length);
    if (dir === '') problems.push('STORAGE_URL "file:" needs a directory, for example file:./data/files');
    if (s3Settings.length > 0) {
      problems.push(
        `${s3Settings.join(' and ')} ${s3Settings.length > 1 ? 'need' : 'needs'} STORAGE_URL=s3://<bucket>`,
      );
    }
    return { kind: 'file', dir: resolve(dir) };
  }
  const s3 = /^s3:\/\/([^/]*)(?:\/(.*))?$/.exec(raw);
  if (s3 === null) {
    problems.push(`STORAGE_URL must be file:<directory> or s3://<bucket>[/<prefix>], got "${raw}"`);
    return { kind: 'file', dir: resolve('./data/files') };
  }
  const bucket = s3[1] ?? '';
  const prefix = (s3[2] ?? '').replace(/^\/+|\/+$/g, '');
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    problems.push(`STORAGE_URL's bucket must be 3 to 63 lower-case letters, digits, dots and dashes, got "${bucket}"`);
  }
  const badSegment = (part: string) => part === '' || part === '.' || part === '..' || /[^A-Za-z0-9._-]/.test(part);
  if (prefix !== '' && prefix.split('/').some(badSegment)) {
    problems.push(`STORAGE_URL's prefix must be path segments of letters, digits, dots, dashes, got "${prefix}"`);
  }
  const endpoint = env.S3_ENDPOINT || undefined;
  if (endpoint !== undefined && !isHttpUrl(endpoint))
    problems.push(`S3_ENDPOINT must be an http(s) URL, got "${endpoint}"`);
  let forcePathStyle = false;
  const style = env.S3_FORCE_PATH_STYLE ?? '';
  if (['1', 'true', 'yes'].includes(style)) forcePathStyle = true;
  else if (!['', '0', 'false', 'no'].includes(style))
    problems.push(`S3_FORCE_PATH_STYLE must be 1 or 0, got "${style}"`);
  const accessKeyId = env.AWS_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY || undefined;
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    problems.push('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together');
  }
  return {
    kind: 's3',
    bucket,
    prefix: prefix === '' ? '' : `${prefix}/`,
    endpoint,
    forcePathStyle,
    // Most S3-compatible services accept any region name; the SDK needs one.
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
    credentials:
      accessKeyId !== undefined && secretAccessKey !== undefined ? { accessKeyId, secretAccessKey } : undefined,
  };
}

function parseDatabaseUrl(raw: string, problems: string[]): DatabaseTarget {
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length);
    if (path === '') problems.push('DATABASE_URL "sqlite:" needs a file path, for example sqlite:./data/site.db');
    return { kind: 'sqlite', path: path === ':memory:' ? path : resolve(path) };
  }
  if (/^postgres(ql)?:\/\//.test(raw)) {
    try {
      new URL(raw);
    } catch {
      problems.push('DATABASE_URL is not a valid postgres:// URL');
    }
    return { kind: 'postgres', url: raw };
  }
  problems.push(`DATABASE_URL must start with sqlite: or postgres://, got "${raw.replace(/\/\/.*@/, '//…@')}"`);
  return { kind: 'sqlite', path: '' };
}

function parseTrustProxy(raw: string | undefined, problems: string[]): false | number | string[] {
  if (raw === undefined || raw === '' || raw === '0' || raw === 'false') return false;
  const hops = Number(raw);
  if (Number.isInteger(hops) && hops > 0 && hops < 100) return hops;
  const addresses = raw.split(',').map((part) => part.trim());
  if (raw !== 'true' && addresses.every(isProxyAddress)) return addresses;
  problems.push(
    `TRUST_PROXY must be the number of proxies in front of the server (1 for one nginx) or a comma-separated ` +
      `list of their addresses (IPs or CIDR ranges), got "${raw}"` +
      (raw === 'true' ? ': "true" would let any client choose its own address through X-Forwarded-For' : ''),
  );
  return false;
}

/** Comma-separated IP addresses and CIDR ranges; proxy-addr's names mean nothing here. */
function parseCdnCheckAllowAddresses(raw: string | undefined, problems: string[]): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  const entries = raw.split(',').map((part) => part.trim());
  const bad = entries.filter((entry) => proxyAddressNames.includes(entry) || !isProxyAddress(entry));
  if (bad.length === 0) return entries;
  problems.push(
    `CDN_CHECK_ALLOW_ADDRESSES must be a comma-separated list of IP addresses and CIDR ranges ` +
      `(127.0.0.1, 10.0.0.0/8, fd00::/8); not ${bad.map((entry) => `"${entry}"`).join(', ')}`,
  );
  return [];
}

const proxyAddressNames = ['loopback', 'linklocal', 'uniquelocal'];

/** An IP address, a CIDR range (`10.0.0.0/8`, `fd00::/8`), or one of proxy-addr's names. */
function isProxyAddress(text: string): boolean {
  if (proxyAddressNames.includes(text)) return true;
  const [address = '', bits, ...rest] = text.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const prefix = Number(bits);
  return /^\d+$/.test(bits) && prefix <= (family === 4 ? 32 : 128);
}

function readSiteConfig(path: string, problems: string[]): SiteConfig {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    problems.push(`SITE_CONFIG ${path} cannot be read as JSON: ${(error as Error).message}`);
    return {} as SiteConfig;
  }
  problems.push(...siteConfigProblems(value));
  return value as SiteConfig;
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export function isTimeZone(zone: string): boolean {
  // Names known without a formatter need none: one costs a process about 8 MB
  // (docs/memory.md#dates-without-intl). Links such as Asia/Kolkata still ask Intl.
  if (localTimeName(zone) !== undefined) return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** TAURI_PUBLIC_KEY as tauri.conf.json's pubkey holds it (base64 of the .pub file), the .pub
 * file's text, or its key line. */
function parseTauriKey(raw: string | undefined, problems: string[]): MinisignKey | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const key = readPublicKey(raw);
  if (key === undefined) {
    problems.push('TAURI_PUBLIC_KEY must be a minisign public key: the pubkey of tauri.conf.json, or the .pub file');
  }
  return key;
}
