import cluster from 'node:cluster';
import { buildApp } from './app';
import type { Config } from './config/config';
import { applyConfigFile, formatDiff } from './config-file/apply-config-file';
import { configFilePath, describeConfigFailure, reapplyOnHangup } from './config-file/config-file-signal';
import { closeContext, createContext } from './context';
import { addAcceptors } from './http/acceptors';
import { SETTLE_AFTER_CUT_MS, drainServer } from './http/graceful-stop';
import { findInsecureCookieWarning } from './http/insecure-cookie-warning';
import { createLoggerOptions, createServerLogger, type ChosenLogFormat } from './logging/logger-options';
import { announceStart, buildStartBanner } from './logging/start-banner';
import { giveBackStartUpMemory } from './start-up-memory';
import { hasDefaultRootPassword } from './users/seed';
import { WORKER_SLOT_VARIABLE } from './workers/primary';

/** Runs the server (console, management API and relay) in this process: alone, or as one worker of several. */
export async function serve(config: Config, logFormat: ChosenLogFormat): Promise<void> {
  // A worker of several: only the lead (slot 1) does the start-up work and runs background jobs.
  const workerSlot = cluster.isWorker ? Number(process.env[WORKER_SLOT_VARIABLE] ?? '1') : 1;
  if (workerSlot !== 1) config = { ...config, isMasterNode: false };
  const logger = await createLoggerOptions(config.logLevel, logFormat);
  const context = await createContext(config, createServerLogger(logger));
  const app = await buildApp(context, { logger });
  // The configuration file is applied by the node that does the start-up work; others hear of it through the
  // change feed. A file refused at start stops the start: a deploy must not come up on a configuration other
  // than the one it declares.
  const configFile = configFilePath();
  if (configFile && config.isMasterNode) {
    try {
      app.log.info(formatDiff(await applyConfigFile(context, configFile)));
    } catch (error) {
      console.error(describeConfigFailure(error));
      await closeContext(context);
      process.exit(1);
    }
    reapplyOnHangup(context, configFile, app.log);
  }
  if (config.isSessionSecretGenerated) {
    app.log.warn('SESSION_SECRET is not set: generated one, so sessions will not survive a restart');
  }
  // ServerAddress is an option stored in the database, so it is known only once the options have loaded.
  const cookieWarning = findInsecureCookieWarning(context.options.get('ServerAddress'), config.trustProxy);
  if (cookieWarning) app.log.warn(cookieWarning);
  let isStopping = false;
  let stopAcceptors = (): Promise<void> => Promise.resolve();
  const shutdown = async (signal: string) => {
    if (isStopping) return;
    isStopping = true;
    app.log.info(`${signal}: shutting down`);
    const graceMs = config.shutdownTimeoutSeconds * 1000;
    // The last resort: settlements that cannot be written (the database away) must not keep it from exiting.
    setTimeout(() => {
      app.log.error(
        'the stop did not finish in time: exiting with settlements unwritten (released at start)',
      );
      process.exit(1);
    }, graceMs + SETTLE_AFTER_CUT_MS).unref();
    await drainServer(app, stopAcceptors, graceMs);
    // The relay's part of the context waits for its stories to be settled before it closes the ledger.
    await closeContext(context);
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  // A worker whose primary is gone (killed outright) stops too, rather than serve on alone.
  if (cluster.isWorker) process.once('disconnect', () => void shutdown('primary gone'));
  await app.listen({ port: config.port, host: config.host });
  // A cluster worker's connections are accepted by the primary; Windows passes handles otherwise.
  if (!cluster.isWorker && process.platform !== 'win32' && config.acceptors > 1) {
    try {
      stopAcceptors = await addAcceptors(app.server, config.acceptors - 1);
    } catch (error) {
      app.log.warn({ err: error }, 'could not add acceptors: new connections are taken one per turn');
    }
  }
  const address = app.server.address();
  if (address !== null && typeof address === 'object' && workerSlot === 1) {
    const banner = buildStartBanner(address, config, await hasDefaultRootPassword(context.db));
    announceStart(banner, logFormat, app.log, (text) => process.stdout.write(text));
  }
  await giveBackStartUpMemory();
}
