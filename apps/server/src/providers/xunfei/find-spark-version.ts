import { UnsupportedOptionError } from '../../canonical/translation';
import { SPARK } from './spark-wire-types';

/** One Spark model as iFlytek serves it: the WebSocket path and the `domain` that names it. */
export interface SparkVersion {
  /** the version the console's field and one-api's SparkDesk-v… model names use */
  version: string;
  /** the WebSocket path below wss://spark-api.xf-yun.com */
  path: string;
  /** `parameter.chat.domain` on the WebSocket, and the model name of the HTTP API */
  domain: string;
}

/** iFlytek's table of versions (https://www.xfyun.cn/doc/spark/Web.html). */
export const SPARK_VERSIONS: readonly SparkVersion[] = [
  { version: 'v1.1', path: '/v1.1/chat', domain: 'lite' },
  { version: 'v3.1', path: '/v3.1/chat', domain: 'generalv3' },
  { version: 'v3.1-128K', path: '/chat/pro-128k', domain: 'pro-128k' },
  { version: 'v3.5', path: '/v3.5/chat', domain: 'generalv3.5' },
  { version: 'v3.5-32K', path: '/chat/max-32k', domain: 'max-32k' },
  { version: 'v4.0', path: '/v4.0/chat', domain: '4.0Ultra' },
];

/** The version a channel uses when neither the model nor the channel names one, as one-api did: Lite. */
export const DEFAULT_SPARK_VERSION = 'v1.1';

const byVersion = (version: string) =>
  SPARK_VERSIONS.find((known) => known.version.toLowerCase() === version.trim().toLowerCase());

/**
 * The Spark model a request is for. The model name decides when it names one: a domain (lite, generalv3,
 * pro-128k, generalv3.5, max-32k, 4.0Ultra — the HTTP API's names) or one-api's `SparkDesk-v3.5`; else the
 * channel's version field (`other`, e.g. v3.5); else Lite. An unknown version is refused, listing the known.
 */
export function findSparkVersion(model: string, channelVersion: string): SparkVersion {
  const name = model.trim();
  const byDomain = SPARK_VERSIONS.find((known) => known.domain.toLowerCase() === name.toLowerCase());
  if (byDomain) return byDomain;
  const named = /^sparkdesk-(v.+)$/i.exec(name)?.[1];
  const version = named ?? (channelVersion.trim() || DEFAULT_SPARK_VERSION);
  const known = byVersion(version);
  if (known) return known;
  const list = SPARK_VERSIONS.map((entry) => `${entry.version} (${entry.domain})`).join(', ');
  throw new UnsupportedOptionError(SPARK, `version ${version}`, `the versions iFlytek serves are ${list}`);
}
