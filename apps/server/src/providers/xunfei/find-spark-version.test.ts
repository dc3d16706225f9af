import { describe, expect, it } from 'vitest';
import { UnsupportedOptionError } from '../../canonical/translation';
import { findSparkVersion } from './find-spark-version';

describe('the Spark model a request is for', () => {
  it.each([
    ['lite', '', '/v1.1/chat', 'lite'],
    ['generalv3', '', '/v3.1/chat', 'generalv3'],
    ['pro-128k', '', '/chat/pro-128k', 'pro-128k'],
    ['generalv3.5', 'v1.1', '/v3.5/chat', 'generalv3.5'],
    ['max-32k', '', '/chat/max-32k', 'max-32k'],
    ['4.0Ultra', '', '/v4.0/chat', '4.0Ultra'],
    ['SparkDesk-v3.5', '', '/v3.5/chat', 'generalv3.5'],
    ['SparkDesk-v4.0', 'v1.1', '/v4.0/chat', '4.0Ultra'],
    ['SparkDesk-v3.1-128K', '', '/chat/pro-128k', 'pro-128k'],
    ['SparkDesk', 'v3.5', '/v3.5/chat', 'generalv3.5'],
    ['SparkDesk', '', '/v1.1/chat', 'lite'],
    ['spark', ' v3.1 ', '/v3.1/chat', 'generalv3'],
  ])('%s on a channel of version %j → %s, domain %s', (model, channelVersion, path, domain) => {
    expect(findSparkVersion(model, channelVersion)).toMatchObject({ path, domain });
  });

  it('refuses a version iFlytek does not serve, listing those it does', () => {
    expect(() => findSparkVersion('SparkDesk-v2.1', '')).toThrow(UnsupportedOptionError);
    expect(() => findSparkVersion('SparkDesk', 'v9')).toThrow(
      /iFlytek Spark does not support version v9: .*v3\.5 \(generalv3\.5\)/,
    );
  });
});
