import { buildApp } from './app';
import { ConfigError, loadConfig } from './config/config';
import { closeContext, createContext } from './context';

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
  const logger = { level: config.logLevel };
  const context = await createContext(config);
  const app = await buildApp(context, { logger });
  if (config.isSessionSecretGenerated) {
    app.log.warn('SESSION_SECRET is not set: generated one, so sessions will not survive a restart');
  }
  const shutdown = async (signal: string) => {
    app.log.info(`${signal}: shutting down`);
    await app.close();
    await closeContext(context);
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: '0.0.0.0' });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
