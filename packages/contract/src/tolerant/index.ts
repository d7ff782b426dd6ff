/**
 * The site's tolerant readers: pure functions turning any server build's answer into one
 * normalized form. No typebox and no DOM here, because this code ships to phones.
 */
export { ApiFailure, WrongShapeError } from './types.js';
export type { Bulletin, CdnSettings, ChangelogRelease, InstallPackageEntry, RegionAddrs } from './types.js';
export { readJsonOrText } from './body.js';
export { unwrapEnvelope } from './envelope.js';
export { readFlag, readId } from './scalars.js';
export { anyWallClock, formatDate, formatMonthDay, readTimestamp, wallClock } from './timestamp.js';
export { readBulletinDetail, readBulletinList } from './bulletins.js';
export { readInstallPackages } from './install-packages.js';
export { readChangelog } from './changelog.js';
export { readAppConfig } from './app-config.js';
export { readEdgeUrl, readRegionDocument } from './addresses.js';
export { cdnUrl, resolveDownloadUrl, resolveImageSrc } from './urls.js';
