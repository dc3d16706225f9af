import { modals } from '@mantine/modals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ChannelStatus, type Channel } from '@gatehouse/shared';
import { showInfo, showSuccess } from '../../api/toast';
import {
  channelKeys,
  deleteChannel,
  deleteDisabledChannels,
  testChannel,
  testChannels,
  updateAllChannelBalances,
  updateChannelBalance,
  updateChannelField,
} from './channels-queries';

/** What the list does with channels; every change refreshes the list. */
export function useChannelActions() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: channelKeys.all });
  const done = () => {
    showSuccess(t('channels.message.operationSucceeded'));
    void refresh();
  };

  const update = useMutation({ mutationFn: updateChannelField, onSuccess: done });
  const remove = useMutation({
    mutationFn: deleteChannel,
    onSuccess: () => {
      showSuccess(t('channels.message.deleted'));
      void refresh();
    },
  });
  const removeDisabled = useMutation({
    mutationFn: deleteDisabledChannels,
    onSuccess: (count) => {
      showSuccess(t('channels.message.deletedDisabled', { count }));
      void refresh();
    },
  });
  const test = useMutation({
    mutationFn: ({ channel, model }: { channel: Channel; model: string }) => testChannel(channel.id, model),
    onSuccess: (outcome, { channel }) => {
      showInfo(
        t(outcome.reply ? 'channels.message.testReplied' : 'channels.message.testSucceeded', {
          name: channel.name,
          model: outcome.model,
          time: outcome.time.toFixed(2),
          reply: outcome.reply,
        }),
      );
    },
    // the test stored a new response time (or disabled the channel) either way
    onSettled: () => void refresh(),
  });
  const testMany = useMutation({
    mutationFn: testChannels,
    onSuccess: () => showInfo(t('channels.message.testStarted')),
  });

  const balance = useMutation({
    mutationFn: (channel: Channel) => updateChannelBalance(channel.id),
    onSuccess: (_balance, channel) => {
      showSuccess(t('channels.message.balanceUpdated', { name: channel.name }));
      void refresh();
    },
  });
  const balanceMany = useMutation({
    mutationFn: updateAllChannelBalances,
    onSuccess: () => showInfo(t('channels.message.balancesStarted')),
  });

  const confirm = (title: string, body: string, onConfirm: () => void) =>
    modals.openConfirmModal({
      title,
      children: body,
      labels: { confirm: t('channels.confirm.confirm'), cancel: t('channels.confirm.cancel') },
      confirmProps: { color: 'red' },
      onConfirm,
    });

  return {
    refresh,
    isTesting: (id: number) => test.isPending && test.variables?.channel.id === id,
    /** A test uses the first model of the channel unless one is picked */
    test: (channel: Channel, model = channel.models.split(',')[0]?.trim() ?? '') =>
      test.mutate({ channel, model }),
    testAll: () => testMany.mutate('all'),
    isUpdatingBalance: (id: number) => balance.isPending && balance.variables?.id === id,
    updateBalance: (channel: Channel) => balance.mutate(channel),
    updateAllBalances: () => balanceMany.mutate(),
    isUpdatingAllBalances: balanceMany.isPending,
    testDisabled: () => testMany.mutate('disabled'),
    toggleStatus: (channel: Channel) =>
      update.mutate({
        id: channel.id,
        status:
          channel.status === ChannelStatus.enabled ? ChannelStatus.manuallyDisabled : ChannelStatus.enabled,
      }),
    setPriority: (channel: Channel, priority: number) => update.mutate({ id: channel.id, priority }),
    setWeight: (channel: Channel, weight: number) =>
      update.mutate({ id: channel.id, weight: Math.max(0, weight) }),
    remove: (channel: Channel) =>
      confirm(
        t('channels.confirm.deleteTitle'),
        t('channels.confirm.deleteBody', { name: channel.name, id: channel.id }),
        () => remove.mutate(channel.id),
      ),
    removeDisabled: () =>
      confirm(t('channels.confirm.deleteDisabledTitle'), t('channels.confirm.deleteDisabledBody'), () =>
        removeDisabled.mutate(),
      ),
  };
}

export type ChannelActions = ReturnType<typeof useChannelActions>;
