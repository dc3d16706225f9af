import { Switch, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { refreshAfterOptionSave, saveOption, type OptionValues } from './options-queries';

interface OptionSwitchProps {
  options: OptionValues;
  optionKey: string;
  label: string;
  description?: string;
  /** asked before switching off (password login: switching it off can lock people out) */
  confirmOff?: { title: string; message: string };
}

/** A boolean option: flipping it saves at once; the switch always shows the value the server holds. */
export function OptionSwitch({ options, optionKey, label, description, confirmOff }: OptionSwitchProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const isOn = options[optionKey] === 'true';
  const mutation = useMutation({
    mutationFn: (value: boolean) => saveOption(optionKey, String(value)),
    onSuccess: () => refreshAfterOptionSave(queryClient),
  });

  const flip = () => {
    if (isOn && confirmOff) {
      modals.openConfirmModal({
        title: confirmOff.title,
        children: <Text size="sm">{confirmOff.message}</Text>,
        labels: { confirm: t('settings.confirm'), cancel: t('settings.cancel') },
        confirmProps: { color: 'red' },
        onConfirm: () => mutation.mutate(false),
      });
      return;
    }
    mutation.mutate(!isOn);
  };

  return (
    <Switch
      label={label}
      description={description}
      checked={isOn}
      disabled={mutation.isPending}
      onChange={flip}
      error={mutation.error?.message}
    />
  );
}
