import { useEffect, useRef } from 'react';
import { Alert, Badge, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatLogQuota } from '@gatehouse/shared';
import { useQuotaDisplay } from '../users/use-quota-display';
import type { AssistantTurn, ChatTurn } from './use-playground-chat';

const relayErrorCodes = ['insufficient_quota', 'invalid_api_key', 'model_not_found'] as const;

function AnswerFooter({ turn }: { turn: AssistantTurn }) {
  const { t, i18n } = useTranslation();
  const quotaDisplay = useQuotaDisplay();
  const count = (value: number) => value.toLocaleString(i18n.language);
  if (turn.status === 'streaming') {
    return (
      <Group gap="xs">
        <Loader size="xs" />
        <Text size="xs" c="dimmed">
          {t('playground.conversation.answering')}
        </Text>
      </Group>
    );
  }
  if (turn.status === 'failed' && turn.error) {
    const code = relayErrorCodes.find((known) => known === turn.error?.code) ?? 'other';
    return (
      <Alert color="red" title={t(`playground.error.${code}`)} p="xs">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {turn.error.message}
        </Text>
        {turn.error.status !== null && (
          <Text size="xs" c="dimmed">
            {t('playground.error.status', { status: turn.error.status })}
          </Text>
        )}
      </Alert>
    );
  }
  return (
    <Stack gap={2}>
      {turn.status === 'stopped' && (
        <Badge color="gray" variant="light" size="sm">
          {t('playground.conversation.stopped')}
        </Badge>
      )}
      <Text size="xs" c="dimmed" data-testid="playground-usage">
        {turn.usage
          ? t('playground.conversation.usage', {
              prompt: count(turn.usage.prompt_tokens),
              completion: count(turn.usage.completion_tokens),
              total: count(turn.usage.total_tokens),
            })
          : t('playground.conversation.noUsage')}
      </Text>
      {turn.charge && (
        <Text size="xs" c="dimmed" data-testid="playground-charge">
          {turn.charge.state === 'found'
            ? t('playground.conversation.charge', { amount: formatLogQuota(turn.charge.quota, quotaDisplay) })
            : t(
                turn.charge.state === 'looking'
                  ? 'playground.conversation.chargeLooking'
                  : 'playground.conversation.chargeMissing',
              )}
        </Text>
      )}
      {turn.requestId && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {t('playground.conversation.requestId', { id: turn.requestId })}
        </Text>
      )}
    </Stack>
  );
}

/** The turns so far; the answer being written grows in place. */
export function PlaygroundConversation({ turns }: { turns: ChatTurn[] }) {
  const { t } = useTranslation();
  const end = useRef<HTMLDivElement>(null);
  const last = turns[turns.length - 1];
  useEffect(() => {
    // jsdom has no scrollIntoView.
    end.current?.scrollIntoView?.({ block: 'nearest' });
  }, [last?.content, turns.length]);

  return (
    <Stack gap="sm" role="log" aria-label={t('playground.conversation.label')}>
      {turns.length === 0 && (
        <Text c="dimmed" size="sm">
          {t('playground.conversation.empty')}
        </Text>
      )}
      {turns.map((turn) => (
        <Paper
          key={turn.id}
          p="sm"
          radius="md"
          withBorder={turn.role === 'assistant'}
          bg={turn.role === 'user' ? 'var(--mantine-color-default-hover)' : undefined}
          ml={turn.role === 'user' ? { base: 'md', sm: 'xl' } : 0}
          mr={turn.role === 'assistant' ? { base: 0, sm: 'xl' } : 0}
        >
          <Text size="xs" fw={600} c="dimmed" mb={4}>
            {turn.role === 'user' ? t('playground.conversation.you') : turn.model}
          </Text>
          {turn.content && (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {turn.content}
            </Text>
          )}
          {turn.role === 'assistant' && (
            <div style={{ marginTop: turn.content ? 8 : 0 }}>
              <AnswerFooter turn={turn} />
            </div>
          )}
        </Paper>
      ))}
      <div ref={end} />
    </Stack>
  );
}
