import { createConnection } from 'node:net';

/**
 * PostgreSQL and MySQL/MariaDB for the tests that run the same code on them, when the machine runs them
 * (this project's machines do: 127.0.0.1:5432 and :3306). Each call makes a database of its own.
 */
export interface ExternalDatabase {
  dsn: string;
  drop: () => Promise<void>;
}

export function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const answer = (isOpen: boolean) => {
      socket.destroy();
      resolve(isOpen);
    };
    socket.setTimeout(500);
    socket.once('connect', () => answer(true));
    socket.once('error', () => answer(false));
    socket.once('timeout', () => answer(false));
  });
}

let databaseCounter = 0;
const nextDatabaseName = (prefix: string) =>
  `${prefix}_${process.pid}_${Date.now() % 100000}_${(databaseCounter += 1)}`;

async function createPostgresDatabase(prefix: string): Promise<ExternalDatabase> {
  const databaseName = nextDatabaseName(prefix);
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  return {
    dsn: `postgres://postgres@127.0.0.1:5432/${databaseName}`,
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${databaseName}`);
      await admin.end();
    },
  };
}

async function createMysqlDatabase(prefix: string): Promise<ExternalDatabase> {
  const databaseName = nextDatabaseName(prefix);
  const { createConnection: connect } = await import('mysql2/promise');
  const admin = await connect({ host: '127.0.0.1', port: 3306, user: 'root' });
  await admin.query(`CREATE DATABASE ${databaseName}`);
  return {
    dsn: `mysql://root@127.0.0.1:3306/${databaseName}`,
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${databaseName}`);
      await admin.end();
    },
  };
}

export const externalDatabaseServers = [
  { name: 'PostgreSQL', port: 5432, create: createPostgresDatabase },
  { name: 'MySQL', port: 3306, create: createMysqlDatabase },
] as const;
