import { useMemo } from 'react';
import {
  Button,
  Checkbox,
  Group,
  JsonInput,
  NumberInput,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Controller,
  useForm,
  useWatch,
  type FieldError,
  type FieldErrors,
  type Resolver,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  ChannelType,
  MODEL_MAPPING_SAMPLE,
  channelKeyFormats,
  channelTypes,
  findBalanceCurrency,
} from '@gatehouse/shared';
import { showSuccess } from '../../api/toast';
import { translateError } from '../../components/translate-error';
import {
  toChannelPayload,
  typesWithComposedKey,
  validateChannelForm,
  type ChannelFormContext,
  type ChannelFormValues,
} from './channel-form-schema';
import { ChannelModelsField } from './channel-models-field';
import { ChannelTypeFields } from './channel-type-fields';
import {
  channelKeys,
  createChannel,
  groupsQueryOptions,
  knownModelsQueryOptions,
  updateChannel,
} from './channels-queries';

interface ChannelFormProps {
  initialValues: ChannelFormValues;
  /** the channel being edited; absent when creating (also when copying) */
  editId?: number;
}

function createResolver(context: ChannelFormContext): Resolver<ChannelFormValues> {
  return async (values) => {
    const issues = validateChannelForm(values, context);
    if (issues.length === 0) return { values, errors: {} };
    const errors: Record<string, unknown> = {};
    for (const issue of issues) {
      const error = { type: 'validate', message: issue.message };
      if (issue.path === 'config.vertex_ai_adc') errors.config = { vertex_ai_adc: error };
      else errors[issue.path] ??= error;
    }
    return { values: {}, errors: errors as FieldErrors<ChannelFormValues> };
  };
}

/** The channel form: create (with batch keys), copy, or edit. */
export function ChannelForm({ initialValues, editId }: ChannelFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const isCreate = editId === undefined;
  const resolver = useMemo(() => createResolver({ isCreate, hasStoredKey: !isCreate }), [isCreate]);
  const { control, register, handleSubmit, formState } = useForm<ChannelFormValues>({
    defaultValues: initialValues,
    resolver,
  });
  const { errors } = formState;
  const type = useWatch({ control, name: 'type' });
  const batch = useWatch({ control, name: 'batch' });
  const knownModels = useQuery(knownModelsQueryOptions());
  const groups = useQuery(groupsQueryOptions());

  const typeOptions = useMemo(
    () =>
      channelTypes.map((channelType) => ({
        value: String(channelType.id),
        label: t(`channels.types.${channelType.id}`, { defaultValue: channelType.name }),
      })),
    [t],
  );

  const mutation = useMutation({
    mutationFn: async (values: ChannelFormValues) => {
      const payload = toChannelPayload(values);
      if (isCreate) return { created: (await createChannel(payload)).ids.length };
      await updateChannel({ ...payload, id: editId });
      return { created: 0 };
    },
    onSuccess: ({ created }) => {
      if (!isCreate) showSuccess(t('channels.message.updated'));
      else if (created > 1) showSuccess(t('channels.message.createdBatch', { count: created }));
      else showSuccess(t('channels.message.created'));
      void queryClient.invalidateQueries({ queryKey: channelKeys.all });
      void navigate('/channel');
    },
  });

  const f = (key: string, options?: Record<string, unknown>) => t(`channels.form.${key}`, options);
  const keyFormat = channelKeyFormats[type];
  const keyDescription = keyFormat ? f('keyFormat', { format: keyFormat }) : undefined;
  const keyPlaceholder =
    !isCreate && initialValues.key === '' ? f('keyKeepPlaceholder') : f('keyPlaceholder');

  return (
    <form onSubmit={handleSubmit((values) => mutation.mutate(values))} noValidate>
      <Stack gap="md">
        <Controller
          control={control}
          name="type"
          render={({ field }) => (
            <Select
              label={f('type')}
              description={findBalanceCurrency(type) ? f('balanceApi') : f('noBalanceApi')}
              data={typeOptions}
              value={String(field.value)}
              onChange={(value) => field.onChange(Number(value ?? ChannelType.openai))}
              searchable
              allowDeselect={false}
              withAsterisk
            />
          )}
        />
        <TextInput
          label={f('name')}
          placeholder={f('namePlaceholder')}
          withAsterisk
          error={translateError(t, errors.name)}
          {...register('name')}
        />
        {!typesWithComposedKey.includes(type) && (
          <Stack gap={6}>
            {isCreate && batch ? (
              <Textarea
                label={f('key')}
                placeholder={f('keyBatchPlaceholder')}
                description={keyDescription}
                autosize
                minRows={3}
                maxRows={12}
                withAsterisk
                error={translateError(t, errors.key)}
                {...register('key')}
              />
            ) : (
              <PasswordInput
                label={f('key')}
                placeholder={keyPlaceholder}
                description={keyDescription}
                autoComplete="off"
                withAsterisk={isCreate}
                error={translateError(t, errors.key)}
                {...register('key')}
              />
            )}
            {isCreate && <Checkbox label={f('batch')} description={f('batchHint')} {...register('batch')} />}
          </Stack>
        )}
        <ChannelTypeFields type={type} register={register} errors={errors} isEdit={!isCreate} />
        {typesWithComposedKey.includes(type) && errors.key && (
          <Text c="red" size="sm">
            {translateError(t, errors.key)}
          </Text>
        )}
        <Controller
          control={control}
          name="groups"
          render={({ field }) => (
            <TagsInput
              label={f('groups')}
              placeholder={f('groupsPlaceholder')}
              description={groups.isError ? f('groupsFreeEntry') : undefined}
              data={groups.data ?? []}
              value={field.value}
              onChange={field.onChange}
              withAsterisk
              clearable
              error={translateError(t, errors.groups as FieldError | undefined)}
            />
          )}
        />
        {type === ChannelType.proxy ? (
          <Text size="sm" c="dimmed">
            {f('modelsNotNeeded')}
          </Text>
        ) : (
          <Controller
            control={control}
            name="models"
            render={({ field }) => (
              <ChannelModelsField
                value={field.value}
                onChange={field.onChange}
                knownModels={knownModels.data?.[String(type)] ?? []}
                error={translateError(t, errors.models as FieldError | undefined)}
              />
            )}
          />
        )}
        <Controller
          control={control}
          name="model_mapping"
          render={({ field }) => (
            <JsonInput
              label={f('modelMapping')}
              description={`${f('modelMappingHint')} ${JSON.stringify(JSON.parse(MODEL_MAPPING_SAMPLE))}`}
              placeholder={MODEL_MAPPING_SAMPLE}
              autosize
              minRows={4}
              maxRows={14}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={translateError(t, errors.model_mapping)}
              // JsonInput checks the syntax itself on blur and then shows this text instead of `error`
              validationError={t('channels.validation.modelMappingInvalid')}
            />
          )}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Controller
            control={control}
            name="priority"
            render={({ field }) => (
              <NumberInput
                label={f('priority')}
                description={f('priorityHint')}
                allowDecimal={false}
                value={field.value}
                onChange={field.onChange}
              />
            )}
          />
          <Controller
            control={control}
            name="weight"
            render={({ field }) => (
              <NumberInput
                label={f('weight')}
                description={f('weightHint')}
                allowDecimal={false}
                allowNegative={false}
                min={0}
                value={field.value}
                onChange={field.onChange}
              />
            )}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => void navigate('/channel')}>
            {f('cancel')}
          </Button>
          <Button type="submit" loading={mutation.isPending}>
            {f('submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
