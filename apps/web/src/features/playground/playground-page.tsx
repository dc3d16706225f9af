import { useEffect, useMemo, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Alert, Button, Grid, Group, Paper, Stack, Textarea, Title } from '@mantine/core';
import { IconPlayerStopFilled, IconSend, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { displayTokenKey, splitCommaList } from '@gatehouse/shared';
import { PageTitle } from '../../components/page-title';
import type { SnippetRequest } from '../../components/relay-snippets';
import { availableModelsQueryOptions } from '../settings/options-queries';
import { PlaygroundConversation } from './playground-conversation';
import { playgroundKeysQueryOptions } from './playground-queries';
import { PlaygroundSettings, type PlaygroundSettingsValue } from './playground-settings';
import { PlaygroundSnippetMenu } from './playground-snippet-menu';
import { conversationMessages, requestBody, usePlaygroundChat } from './use-playground-chat';

const initialSettings: PlaygroundSettingsValue = {
  tokenId: null,
  model: '',
  systemPrompt: '',
  temperature: 1,
  maxTokens: '',
};

/** Chat with a model through the real relay, with one of the user's keys; each answer shows its usage and charge. */
export default function PlaygroundPage() {
  const { t } = useTranslation();
  const keys = useQuery(playgroundKeysQueryOptions());
  const availableModels = useQuery(availableModelsQueryOptions());
  const chat = usePlaygroundChat();
  const [settings, setSettings] = useState(initialSettings);
  const [draft, setDraft] = useState('');

  const keyList = useMemo(() => keys.data ?? [], [keys.data]);
  const chosenKey = keyList.find((key) => String(key.id) === settings.tokenId) ?? null;
  // A key limited to some models offers those; otherwise every model the user's group can call.
  const models = useMemo(() => {
    const allowed = splitCommaList(chosenKey?.models ?? '');
    return allowed.length > 0 ? allowed : (availableModels.data ?? []).map((entry) => entry.model);
  }, [chosenKey, availableModels.data]);

  const firstKeyId = keyList[0] ? String(keyList[0].id) : null;
  useEffect(() => {
    if (settings.tokenId === null && firstKeyId)
      setSettings((current) => ({ ...current, tokenId: firstKeyId }));
  }, [firstKeyId, settings.tokenId]);
  useEffect(() => {
    if (models.length > 0 && !models.includes(settings.model)) {
      setSettings((current) => ({ ...current, model: models[0] ?? '' }));
    }
  }, [models, settings.model]);

  const apiKey = chosenKey ? displayTokenKey(chosenKey.key) : '';
  const canSend = apiKey !== '' && settings.model !== '' && draft.trim() !== '' && !chat.isStreaming;

  const snippetRequest: SnippetRequest | null = useMemo(() => {
    if (!apiKey || !settings.model) return null;
    const messages = conversationMessages(settings.systemPrompt, chat.turns);
    const next = draft.trim() || (messages.some((message) => message.role === 'user') ? '' : 'Hello!');
    if (next) messages.push({ role: 'user', content: next });
    return { ...requestBody({ ...settings, apiKey }, messages), stream: true };
  }, [apiKey, settings, chat.turns, draft]);

  function send(event?: FormEvent) {
    event?.preventDefault();
    if (!canSend) return;
    chat.send({ ...settings, apiKey }, draft.trim());
    setDraft('');
  }

  function sendOnCtrlEnter(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) send();
  }

  if (keys.isSuccess && keyList.length === 0) {
    return (
      <>
        <PageTitle title={t('playground.title')} description={t('playground.description')} />
        <Alert title={t('playground.noKeys.title')} color="yellow">
          <Stack gap="sm" align="flex-start">
            {t('playground.noKeys.body')}
            <Button component={Link} to="/token/add" size="xs">
              {t('playground.noKeys.create')}
            </Button>
          </Stack>
        </Alert>
      </>
    );
  }

  return (
    <>
      <PageTitle
        title={t('playground.title')}
        description={t('playground.description')}
        actions={
          <>
            <PlaygroundSnippetMenu request={snippetRequest} apiKey={apiKey} />
            <Button
              variant="default"
              leftSection={<IconTrash size={16} />}
              onClick={chat.clear}
              disabled={chat.turns.length === 0}
            >
              {t('playground.input.clear')}
            </Button>
          </>
        }
      />
      <Grid gutter="md">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Paper withBorder p="md" radius="md">
            <Title order={4} mb="sm">
              {t('playground.settings.title')}
            </Title>
            <PlaygroundSettings
              keys={keyList}
              models={models}
              value={settings}
              onChange={(change) => setSettings((current) => ({ ...current, ...change }))}
            />
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="md">
            <Paper withBorder p="md" radius="md">
              <PlaygroundConversation turns={chat.turns} />
            </Paper>
            <form onSubmit={send}>
              <Textarea
                label={t('playground.input.label')}
                placeholder={t('playground.input.placeholder')}
                value={draft}
                onChange={(event) => setDraft(event.currentTarget.value)}
                onKeyDown={sendOnCtrlEnter}
                autosize
                minRows={2}
                maxRows={8}
              />
              <Group justify="flex-end" mt="sm">
                {chat.isStreaming ? (
                  <Button color="red" leftSection={<IconPlayerStopFilled size={16} />} onClick={chat.stop}>
                    {t('playground.input.stop')}
                  </Button>
                ) : (
                  <Button type="submit" leftSection={<IconSend size={16} />} disabled={!canSend}>
                    {t('playground.input.send')}
                  </Button>
                )}
              </Group>
            </form>
          </Stack>
        </Grid.Col>
      </Grid>
    </>
  );
}
