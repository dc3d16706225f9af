import type * as EventStreams from '@smithy/core/event-streams';
import type * as Serde from '@smithy/core/serde';
import type * as Signature from '@smithy/signature-v4';
import { lazyPackage } from '../../lazy-package';

// The AWS SDK's signing and event stream code, loaded on the first request to a Bedrock channel.
export const smithySerde = lazyPackage<typeof Serde>('@smithy/core/serde');
export const smithyEventStreams = lazyPackage<typeof EventStreams>('@smithy/core/event-streams');
export const smithySignature = lazyPackage<typeof Signature>('@smithy/signature-v4');
