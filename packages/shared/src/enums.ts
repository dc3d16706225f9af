/** Numeric enums (roles, statuses, log and channel types …), with their labels. The console and the server both read these. */

export const Role = { guest: 0, common: 1, admin: 10, root: 100 } as const;
export type RoleValue = (typeof Role)[keyof typeof Role];

export const isAdminRole = (role: number): boolean => role >= Role.admin;
export const isRootRole = (role: number): boolean => role >= Role.root;

/** i18n keys of the role labels (normal user, admin, super admin, unknown identity). */
export function roleLabelKey(role: number): string {
  if (role === Role.common) return 'role.common';
  if (role === Role.admin) return 'role.admin';
  if (role === Role.root) return 'role.root';
  return 'role.unknown';
}

export const UserStatus = { enabled: 1, disabled: 2 } as const;
export const TokenStatus = { enabled: 1, disabled: 2, expired: 3, exhausted: 4 } as const;
export const RedemptionStatus = { unused: 1, disabled: 2, used: 3 } as const;
export const ChannelStatus = { enabled: 1, manuallyDisabled: 2, autoDisabled: 3 } as const;
/** error: a relay request that failed after its quota was reserved (refunded whole; the number new-api uses) */
export const LogType = { all: 0, topup: 1, consume: 2, manage: 3, system: 4, error: 5 } as const;
export type LogTypeValue = (typeof LogType)[keyof typeof LogType];

/**
 * The API a client called, as the consumption log records it: the chat protocols the gateway speaks, then the
 * OpenAI endpoints that are not chat.
 */
export const inboundProtocols = [
  'openai-chat',
  'openai-responses',
  'anthropic-messages',
  'gemini',
  'openai-completions',
  'openai-embeddings',
  'openai-moderations',
  'openai-images',
  'openai-audio-speech',
  'openai-audio-transcriptions',
  'openai-audio-translations',
] as const;
export type InboundProtocol = (typeof inboundProtocols)[number];

export function isInboundProtocol(value: string): value is InboundProtocol {
  return (inboundProtocols as readonly string[]).includes(value);
}

export type BadgeColor =
  | 'green'
  | 'dark'
  | 'gray'
  | 'red'
  | 'pink'
  | 'grape'
  | 'violet'
  | 'indigo'
  | 'blue'
  | 'cyan'
  | 'teal'
  | 'lime'
  | 'yellow'
  | 'orange'
  | 'brown';

export interface Badge {
  /** i18n key of the label */
  label: string;
  color: BadgeColor;
}

/** One badge map per enum, so no component ever switches on raw numbers. */
export const userStatusBadges: Record<number, Badge> = {
  [UserStatus.enabled]: { label: 'status.user.enabled', color: 'green' },
  [UserStatus.disabled]: { label: 'status.user.disabled', color: 'red' },
};
export const tokenStatusBadges: Record<number, Badge> = {
  [TokenStatus.enabled]: { label: 'status.token.enabled', color: 'green' },
  [TokenStatus.disabled]: { label: 'status.token.disabled', color: 'red' },
  [TokenStatus.expired]: { label: 'status.token.expired', color: 'yellow' },
  [TokenStatus.exhausted]: { label: 'status.token.exhausted', color: 'gray' },
};
export const redemptionStatusBadges: Record<number, Badge> = {
  [RedemptionStatus.unused]: { label: 'status.redemption.unused', color: 'green' },
  [RedemptionStatus.disabled]: { label: 'status.redemption.disabled', color: 'red' },
  [RedemptionStatus.used]: { label: 'status.redemption.used', color: 'gray' },
};
export const channelStatusBadges: Record<number, Badge> = {
  [ChannelStatus.enabled]: { label: 'status.channel.enabled', color: 'green' },
  [ChannelStatus.manuallyDisabled]: { label: 'status.channel.manuallyDisabled', color: 'red' },
  [ChannelStatus.autoDisabled]: { label: 'status.channel.autoDisabled', color: 'yellow' },
};
export const logTypeBadges: Record<number, Badge> = {
  [LogType.topup]: { label: 'log.type.topup', color: 'cyan' },
  [LogType.consume]: { label: 'log.type.consume', color: 'green' },
  [LogType.manage]: { label: 'log.type.manage', color: 'orange' },
  [LogType.system]: { label: 'log.type.system', color: 'grape' },
  [LogType.error]: { label: 'log.type.error', color: 'red' },
};
export const unknownBadge: Badge = { label: 'status.unknown', color: 'gray' };

export function badgeFor(map: Record<number, Badge>, value: number): Badge {
  return map[value] ?? unknownBadge;
}

/** Group tags — vip and pro yellow, svip and premium red. */
export function groupColor(group: string): BadgeColor {
  if (group === 'vip' || group === 'pro') return 'yellow';
  if (group === 'svip' || group === 'premium') return 'red';
  return 'blue';
}

/** Response-time badge — 0 untested; ≤1000 green; ≤3000 olive; ≤5000 yellow; above red. */
export function responseTimeColor(milliseconds: number): BadgeColor | null {
  if (milliseconds === 0) return null;
  if (milliseconds <= 1000) return 'green';
  if (milliseconds <= 3000) return 'lime';
  if (milliseconds <= 5000) return 'yellow';
  return 'red';
}

/** The channel list's health badge: what the relay's circuit breaker says of a channel on this server. */
export type ChannelHealthState = 'closed' | 'open' | 'half_open' | 'resting' | 'auth_failed';
export const channelHealthBadges: Record<ChannelHealthState, Badge> = {
  closed: { label: 'status.channelHealth.closed', color: 'green' },
  open: { label: 'status.channelHealth.open', color: 'red' },
  half_open: { label: 'status.channelHealth.halfOpen', color: 'orange' },
  resting: { label: 'status.channelHealth.resting', color: 'yellow' },
  auth_failed: { label: 'status.channelHealth.authFailed', color: 'red' },
};
