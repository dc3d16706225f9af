export * from './enums';
export * from './channel-types';
export * from './quota';
export * from './time';
export * from './envelope';
export * from './entities';
export * from './auth-schemas';
