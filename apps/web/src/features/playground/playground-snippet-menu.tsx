import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconCode } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { showSuccess, showWarning } from '../../api/toast';
import { useStatus } from '../../api/status';
import {
  buildChatSnippet,
  relayBaseUrl,
  snippetLanguages,
  type SnippetLanguage,
  type SnippetRequest,
} from '../../components/relay-snippets';
import { copyText } from '../settings/copy-text';
import { showManualCopy } from '../tokens/manual-copy-modal';

interface PlaygroundSnippetMenuProps {
  /** the request the playground would send now; null while no key or model is chosen */
  request: SnippetRequest | null;
  apiKey: string;
}

/** Copies the current conversation and settings as a curl command or openai-package code. */
export function PlaygroundSnippetMenu({ request, apiKey }: PlaygroundSnippetMenuProps) {
  const { t } = useTranslation();
  const status = useStatus();

  async function copy(language: SnippetLanguage) {
    if (!request) return;
    const baseUrl = relayBaseUrl(status?.server_address, window.location.origin);
    const text = buildChatSnippet(language, { request, baseUrl, key: apiKey });
    if (await copyText(text)) {
      showSuccess(t('playground.snippet.copied'));
      return;
    }
    showWarning(t('playground.snippet.copyFailed'));
    showManualCopy(t('playground.snippet.manualTitle'), text);
  }

  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          leftSection={<IconCode size={16} />}
          rightSection={<IconChevronDown size={14} />}
          disabled={!request}
        >
          {t('playground.snippet.copyAs')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {snippetLanguages.map((language) => (
          <Menu.Item key={language} onClick={() => void copy(language)}>
            {t(`playground.snippet.${language}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
