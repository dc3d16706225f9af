import { channelTypes, type KnownModel } from '@gatehouse/shared';
import { findChannelProvider } from '../providers/provider-registry';

/**
 * Model names each channel type is known to serve, from its vendor folder (`providers/<vendor>/`): offered by
 * the channel form's 'fill related models'. A channel may list any other name too: this is a convenience, not
 * a whitelist.
 */
export function findKnownModels(type: number): readonly string[] {
  return findChannelProvider(type)?.models ?? [];
}

/** GET /api/models: channel type id → known model names, for every channel type. */
export function listKnownModelsByType(): Record<string, string[]> {
  return Object.fromEntries(channelTypes.map((type) => [String(type.id), [...findKnownModels(type.id)]]));
}

/** GET /api/channel/models: every known model once, owned by the first type (in the console's order) that lists it. */
export function listKnownModels(): KnownModel[] {
  const models = new Map<string, KnownModel>();
  for (const type of channelTypes) {
    for (const id of findKnownModels(type.id)) {
      if (!models.has(id)) models.set(id, { id, object: 'model', owned_by: type.name });
    }
  }
  return [...models.values()];
}
