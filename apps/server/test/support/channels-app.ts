import { afterEach, beforeEach } from 'vitest';
import { channelApi } from '../channels-helpers';
import { createTestApp, loginAs, type Session, type TestApp } from '../test-app';

/**
 * The channel API's tests: a new gateway for each test, with root signed in. A test file calls
 * useChannelsApp() at its top level; `test`, `root` and `api` (root's channel API) are set before each test.
 */
export let test: TestApp;
export let root: Session;
export let api: ReturnType<typeof channelApi>;

/** Starts a gateway and signs root in before each test; closes the gateway after it. */
export function useChannelsApp(): void {
  beforeEach(async () => {
    test = await createTestApp();
    root = await loginAs(test, 'root', '123456');
    api = channelApi(test, root);
  });
  afterEach(async () => {
    await test.close();
  });
}
