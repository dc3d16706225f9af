import type { FastifyBaseLogger } from 'fastify';
import { ChannelStatus, findChannelType } from '@gatehouse/shared';
import type { Db } from '../db/database';
import type { ChannelRow } from '../db/schema';
import {
  findChannelProvider,
  resolveChannelCredentials,
  type ChannelProvider,
} from '../providers/provider-registry';
import type { ChannelCredentials } from '../providers/provider-types';

/** A channel as the relay uses it: parsed once per reload, never per request. */
export interface RelayChannel {
  id: number;
  type: number;
  /** the channel type's name ("Anthropic Claude"), for messages that must say which vendor failed */
  typeName: string;
  name: string;
  status: number;
  createdTime: number;
  credentials: ChannelCredentials;
  /** null for a channel type this server does not know */
  provider: ChannelProvider | null;
  /** requested model → upstream model */
  modelMapping: ReadonlyMap<string, string>;
  /** why the upstream last refused the channel's credentials, as stored; '' = it has not */
  authFailedReason: string;
}

interface WeightedChannel {
  channel: RelayChannel;
  weight: number;
}

/** Channels of one priority for one (group, model); picked among by weight. */
interface PriorityTier {
  priority: number;
  members: WeightedChannel[];
}

type ChannelSource = Pick<
  ChannelRow,
  | 'id'
  | 'type'
  | 'name'
  | 'status'
  | 'created_time'
  | 'key'
  | 'base_url'
  | 'other'
  | 'config'
  | 'model_mapping'
> &
  Partial<Pick<ChannelRow, 'auth_failed_reason'>>;

export function parseModelMapping(text: string): ReadonlyMap<string, string> {
  if (text.trim() === '') return new Map();
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return new Map();
    return new Map(
      Object.entries(value).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].trim() !== '',
      ),
    );
  } catch {
    return new Map();
  }
}

export function toRelayChannel(row: ChannelSource): RelayChannel {
  return {
    id: row.id,
    type: row.type,
    typeName: findChannelType(row.type)?.name ?? `type ${row.type}`,
    name: row.name,
    status: row.status,
    createdTime: Number(row.created_time),
    credentials: resolveChannelCredentials(row),
    provider: findChannelProvider(row.type),
    modelMapping: parseModelMapping(row.model_mapping),
    authFailedReason: row.auth_failed_reason ?? '',
  };
}

const indexKey = (group: string, model: string) => `${group}\u0000${model}`;

/**
 * The enabled abilities (group × model → channel) in memory, so picking a channel costs no query. Reloaded
 * when channels change (the channelsChanged event) and every SYNC_FREQUENCY seconds for other instances'
 * changes. Requests that arrive during a reload wait for it, so a saved channel is used at once.
 */
export class ChannelCache {
  private index = new Map<string, PriorityTier[]>();
  private modelsByGroup = new Map<string, Map<string, RelayChannel>>();
  private loading: Promise<void> | null = null;
  private isLoaded = false;
  private isReloadQueued = false;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Resolves once the cache holds data at least as new as the last change notice. */
  ready(): Promise<void> | null {
    if (this.loading) return this.loading;
    return this.isLoaded ? null : this.reload();
  }

  /** Starts a reload; a change during a reload queues exactly one more. */
  reload(): Promise<void> {
    if (this.loading) {
      this.isReloadQueued = true;
      return this.loading;
    }
    this.loading = this.load()
      .catch((error: unknown) => this.log.error({ err: error }, 'channel cache reload failed'))
      .finally(() => {
        this.loading = null;
        if (this.isReloadQueued) {
          this.isReloadQueued = false;
          void this.reload();
        }
      });
    return this.loading;
  }

  private async load(): Promise<void> {
    const rows = await this.db
      .selectFrom('abilities')
      .innerJoin('channels', 'channels.id', 'abilities.channel_id')
      .select([
        'abilities.group as ability_group',
        'abilities.model as ability_model',
        'abilities.priority as ability_priority',
        'abilities.weight as ability_weight',
        'channels.id',
        'channels.type',
        'channels.name',
        'channels.status',
        'channels.created_time',
        'channels.key',
        'channels.base_url',
        'channels.other',
        'channels.config',
        'channels.model_mapping',
        'channels.auth_failed_reason',
      ])
      .where('abilities.enabled', '=', 1)
      .where('channels.status', '=', ChannelStatus.enabled)
      .execute();
    const channels = new Map<number, RelayChannel>();
    const index = new Map<string, PriorityTier[]>();
    const modelsByGroup = new Map<string, Map<string, RelayChannel>>();
    for (const row of rows) {
      let channel = channels.get(row.id);
      if (!channel) {
        channel = toRelayChannel(row);
        channels.set(row.id, channel);
      }
      const key = indexKey(row.ability_group, row.ability_model);
      const tiers = index.get(key) ?? [];
      index.set(key, tiers);
      const priority = Number(row.ability_priority);
      let tier = tiers.find((candidate) => candidate.priority === priority);
      if (!tier) {
        tier = { priority, members: [] };
        tiers.push(tier);
      }
      // Weight 0 still gets picked: it counts as 1.
      tier.members.push({ channel, weight: Math.max(1, Number(row.ability_weight)) });
      const models = modelsByGroup.get(row.ability_group) ?? new Map<string, RelayChannel>();
      modelsByGroup.set(row.ability_group, models);
      if (!models.has(row.ability_model)) models.set(row.ability_model, channel);
    }
    for (const tiers of index.values()) tiers.sort((left, right) => right.priority - left.priority);
    this.index = index;
    this.modelsByGroup = modelsByGroup;
    this.isLoaded = true;
  }

  /**
   * A channel for (group, model): the highest priority that still has a channel not in `excluded`, and inside
   * it a weighted random choice. Null when none is left.
   */
  pick(
    group: string,
    model: string,
    excluded: ReadonlySet<number>,
    random = Math.random,
  ): RelayChannel | null {
    return this.pickAvailable(group, model, excluded, null, random);
  }

  /**
   * Like pick, among the channels `isAvailable` accepts too (the relay passes its circuit breaker's verdict;
   * null = all of them).
   */
  pickAvailable(
    group: string,
    model: string,
    excluded: ReadonlySet<number>,
    isAvailable: ((channel: RelayChannel) => boolean) | null,
    random = Math.random,
  ): RelayChannel | null {
    const tiers = this.index.get(indexKey(group, model));
    if (!tiers) return null;
    for (const tier of tiers) {
      const members =
        excluded.size === 0 && isAvailable === null
          ? tier.members
          : tier.members.filter(
              (member) => !excluded.has(member.channel.id) && (isAvailable?.(member.channel) ?? true),
            );
      if (members.length === 0) continue;
      if (members.length === 1) return members[0].channel;
      const total = members.reduce((sum, member) => sum + member.weight, 0);
      let point = random() * total;
      for (const member of members) {
        point -= member.weight;
        if (point < 0) return member.channel;
      }
      return members[members.length - 1].channel;
    }
    return null;
  }

  /** Every enabled channel of (group, model) not in `excluded`, whatever its priority. */
  listCandidates(group: string, model: string, excluded: ReadonlySet<number>): RelayChannel[] {
    const tiers = this.index.get(indexKey(group, model)) ?? [];
    return tiers.flatMap((tier) =>
      tier.members.map((member) => member.channel).filter((channel) => !excluded.has(channel.id)),
    );
  }

  /** Models some enabled channel serves in any of the groups, with one such channel each. */
  listModels(groups: readonly string[]): Map<string, RelayChannel> {
    const models = new Map<string, RelayChannel>();
    for (const group of groups) {
      for (const [model, channel] of this.modelsByGroup.get(group) ?? []) {
        if (!models.has(model)) models.set(model, channel);
      }
    }
    return models;
  }
}
