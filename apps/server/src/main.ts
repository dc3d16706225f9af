import { buildApp } from './app';
import { ConfigError, loadConfig } from './config/config';
import { closeContext, createContext } from './context';
import { findInsecureCookieWarning } from './http/insecure-cookie-warning';
import { chooseLogFormat, createLoggerOptions } from './logging/logger-options';
import { announceStart, buildStartBanner } from './logging/start-banner';
import { hasDefaultRootPassword } from './users/seed';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const logFormat = chooseLogFormat(config.logFormat, process.stdout.isTTY === true);
  const logger = await createLoggerOptions(config.logLevel, logFormat);
  const context = await createContext(config);
  const app = await buildApp(context, { logger });
  if (config.isSessionSecretGenerated) {
    app.log.warn('SESSION_SECRET is not set: generated one, so sessions will not survive a restart');
  }
  // ServerAddress is an option stored in the database, so it is known only once the options have loaded.
  const cookieWarning = findInsecureCookieWarning(context.options.get('ServerAddress'), config.trustProxy);
  if (cookieWarning) app.log.warn(cookieWarning);
  const shutdown = async (signal: string) => {
    app.log.info(`${signal}: shutting down`);
    await app.close();
    await closeContext(context);
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  if (address !== null && typeof address === 'object') {
    const banner = buildStartBanner(address, config, await hasDefaultRootPassword(context.db));
    announceStart(banner, logFormat, app.log, (text) => process.stdout.write(text));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
