import { ChannelType, isKnownChannelType, ratioOptionNames } from '@gatehouse/shared';
import { z } from 'zod';

/** Channel types by the names the file uses (`openai`, `azure`, `anthropic`, …); a type's id works too. */
export const channelTypeNames = Object.keys(ChannelType) as Array<keyof typeof ChannelType>;

export function channelTypeName(id: number): string | number {
  return channelTypeNames.find((name) => ChannelType[name] === id) ?? id;
}

const channelTypeField = z.union([z.string(), z.number()]).transform((type, context) => {
  const id = typeof type === 'number' ? type : ChannelType[type as keyof typeof ChannelType];
  if (id === undefined || !isKnownChannelType(id)) {
    context.addIssue({
      code: 'custom',
      message: `unknown channel type "${type}" (one of ${channelTypeNames.join(', ')}, or a type id)`,
    });
    return z.NEVER;
  }
  return id;
});

/** A list may be written as a YAML sequence or as one comma-separated string. */
const nameListField = z
  .union([z.array(z.union([z.string(), z.number()]).transform(String)), z.string()])
  .transform((list) => (Array.isArray(list) ? list.join(',') : list));

const textMap = z.record(z.string(), z.string());

export const fileChannelSchema = z
  .object({
    /** identity: the channel of the database with this name is the one the entry describes */
    name: z.string().trim().min(1, 'name is required').max(128, 'name must be at most 128 characters'),
    type: channelTypeField,
    key: z.string().default(''),
    base_url: z.string().default(''),
    models: nameListField.default(''),
    groups: nameListField.default('default'),
    model_mapping: textMap.default({}),
    priority: z.number().int('priority must be a whole number').default(0),
    weight: z.number().int('weight must be a whole number').min(0, 'weight must not be negative').default(0),
    status: z.enum(['enabled', 'disabled']).default('enabled'),
    other: z.string().default(''),
    config: textMap.default({}),
  })
  .strict();
export type FileChannel = z.infer<typeof fileChannelSchema>;

const ratioMap = z.record(z.string(), z.number().min(0, 'a ratio or price must not be negative'));

/** Every ratio option but GroupRatio, which is the file's `groups`. */
export const priceOptionKeys = (Object.keys(ratioOptionNames) as Array<keyof typeof ratioOptionNames>).filter(
  (key) => key !== 'GroupRatio',
);

const pricesSchema = z
  .object(Object.fromEntries(priceOptionKeys.map((key) => [key, ratioMap.optional()])))
  .strict();

export const configFileSchema = z
  .object({
    /** true: channels of the database the file does not name are deleted; false: left alone */
    prune: z.boolean().default(false),
    channels: z.array(fileChannelSchema).default([]),
    /** ModelRatio, CompletionRatio, cache, audio and image ratios, ModelPrice: each replaces the whole option */
    prices: pricesSchema.default({}),
    /** the user groups and their ratios (GroupRatio) */
    groups: ratioMap.optional(),
    options: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
  })
  .strict();
export type ConfigFile = z.infer<typeof configFileSchema>;
