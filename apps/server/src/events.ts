import { EventEmitter } from 'node:events';

/**
 * In-process notifications between parts of the server (e.g. channels saved → the relay's channel cache
 * reloads). Each is also announced to the other instances through the database (sync/change-feed.ts).
 */
export interface AppEvents {
  /** channels or abilities changed */
  channelsChanged: [];
  /** a user's status, role, group or quota changed by an admin */
  userChanged: [userId: number];
  /** a key was changed or deleted by its owner */
  keysChanged: [];
}

export class AppEventBus {
  private readonly emitter = new EventEmitter();

  emit<Name extends keyof AppEvents>(name: Name, ...args: AppEvents[Name]): void {
    this.emitter.emit(name, ...args);
  }

  on<Name extends keyof AppEvents>(name: Name, listener: (...args: AppEvents[Name]) => void): () => void {
    this.emitter.on(name, listener as (...args: unknown[]) => void);
    return () => this.emitter.off(name, listener as (...args: unknown[]) => void);
  }
}
