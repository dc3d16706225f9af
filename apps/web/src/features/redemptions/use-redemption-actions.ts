import { modals } from '@mantine/modals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { RedemptionStatus, type Redemption } from '@gatehouse/shared';
import { showSuccess, showWarning } from '../../api/toast';
import { copyText } from '../settings/copy-text';
import { deleteRedemption, redemptionKeys, updateRedemptionStatus } from './redemptions-queries';

/** What the redemption list does with a code; a code the clipboard refused goes to `onCopyFailed`. */
export function useRedemptionActions(onCopyFailed: (code: string) => void) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: redemptionKeys.all });

  const toggle = useMutation({
    mutationFn: updateRedemptionStatus,
    onSuccess: () => {
      showSuccess(t('redemptions.message.operationSucceeded'));
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: deleteRedemption,
    onSuccess: () => {
      showSuccess(t('redemptions.message.deleted'));
      void refresh();
    },
  });

  async function copy(redemption: Redemption) {
    if (await copyText(redemption.key)) {
      showSuccess(t('redemptions.message.copied'));
      return;
    }
    showWarning(t('redemptions.message.copyFailed'));
    onCopyFailed(redemption.key);
  }

  return {
    refresh,
    copy: (redemption: Redemption) => void copy(redemption),
    isToggling: (id: number) => toggle.isPending && toggle.variables?.id === id,
    toggleStatus: (redemption: Redemption) =>
      toggle.mutate({
        id: redemption.id,
        status:
          redemption.status === RedemptionStatus.unused ? RedemptionStatus.disabled : RedemptionStatus.unused,
      }),
    remove: (redemption: Redemption) =>
      modals.openConfirmModal({
        title: t('redemptions.confirm.deleteTitle'),
        children: t('redemptions.confirm.deleteBody', { name: redemption.name }),
        labels: { confirm: t('redemptions.confirm.confirm'), cancel: t('redemptions.confirm.cancel') },
        confirmProps: { color: 'red' },
        onConfirm: () => remove.mutate(redemption.id),
      }),
  };
}

export type RedemptionActions = ReturnType<typeof useRedemptionActions>;
