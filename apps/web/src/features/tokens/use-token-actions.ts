import { modals } from '@mantine/modals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TokenStatus, displayTokenKey, type Token } from '@gatehouse/shared';
import { showSuccess, showWarning } from '../../api/toast';
import { useStatus } from '../../api/status';
import { copyText } from '../settings/copy-text';
import { deleteToken, tokenKeys, updateTokenStatus } from './tokens-queries';
import { relayBaseUrl } from '../../components/relay-snippets';
import { buildSnippet, type SnippetKind } from './token-snippets';
import { showManualCopy } from './manual-copy-modal';

/**
 * What the key list does with a key. `onCopyFailed` receives the key when the clipboard refuses, so the page
 * can put it into the search box.
 */
export function useTokenActions(onCopyFailed: (key: string) => void) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const status = useStatus();
  const refresh = () => queryClient.invalidateQueries({ queryKey: tokenKeys.all });

  const toggle = useMutation({
    mutationFn: updateTokenStatus,
    onSuccess: () => {
      showSuccess(t('tokens.message.operationSucceeded'));
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: deleteToken,
    onSuccess: () => {
      showSuccess(t('tokens.message.deleted'));
      void refresh();
    },
  });

  async function copy(token: Token, kind: SnippetKind | 'key') {
    const text =
      kind === 'key'
        ? displayTokenKey(token.key)
        : buildSnippet(kind, token, relayBaseUrl(status?.server_address, window.location.origin));
    if (await copyText(text)) {
      showSuccess(t('tokens.message.copied'));
      return;
    }
    showWarning(t('tokens.message.copyFailed'));
    if (kind === 'key') onCopyFailed(text);
    else showManualCopy(t('tokens.snippet.manualTitle'), text);
  }

  return {
    refresh,
    copy: (token: Token, kind: SnippetKind | 'key' = 'key') => void copy(token, kind),
    isToggling: (id: number) => toggle.isPending && toggle.variables?.id === id,
    toggleStatus: (token: Token) =>
      toggle.mutate({
        id: token.id,
        status: token.status === TokenStatus.enabled ? TokenStatus.disabled : TokenStatus.enabled,
      }),
    remove: (token: Token) =>
      modals.openConfirmModal({
        title: t('tokens.confirm.deleteTitle'),
        children: t('tokens.confirm.deleteBody', { name: token.name }),
        labels: { confirm: t('tokens.confirm.confirm'), cancel: t('tokens.confirm.cancel') },
        confirmProps: { color: 'red' },
        onConfirm: () => remove.mutate(token.id),
      }),
  };
}

export type TokenActions = ReturnType<typeof useTokenActions>;
