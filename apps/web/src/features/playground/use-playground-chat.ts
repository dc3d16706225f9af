import { useRef, useState } from 'react';
import type { SnippetMessage } from '../../components/relay-snippets';
import { findRequestCharge } from './playground-queries';
import { RelayCallError, streamChat, type ChatCompletionBody, type ChatUsage } from './stream-chat';

export type Charge = { state: 'looking' } | { state: 'found'; quota: number } | { state: 'missing' };

export interface UserTurn {
  id: number;
  role: 'user';
  content: string;
}

export interface AssistantTurn {
  id: number;
  role: 'assistant';
  content: string;
  model: string;
  status: 'streaming' | 'done' | 'stopped' | 'failed';
  requestId: string | null;
  usage: ChatUsage | null;
  charge: Charge | null;
  error: RelayCallError | null;
}

export type ChatTurn = UserTurn | AssistantTurn;

export interface ChatSettings {
  apiKey: string;
  model: string;
  systemPrompt: string;
  temperature: number;
  /** empty: the model's own limit */
  maxTokens: number | '';
}

/** The messages a request sends: the system prompt, then every turn but the failed answers. */
export function conversationMessages(systemPrompt: string, turns: ChatTurn[]): SnippetMessage[] {
  const messages: SnippetMessage[] = systemPrompt.trim() ? [{ role: 'system', content: systemPrompt }] : [];
  for (const turn of turns) {
    if (turn.role === 'assistant' && (turn.status === 'failed' || turn.content === '')) continue;
    messages.push({ role: turn.role, content: turn.content });
  }
  return messages;
}

export function requestBody(settings: ChatSettings, messages: SnippetMessage[]): ChatCompletionBody {
  return {
    model: settings.model,
    messages,
    temperature: settings.temperature,
    ...(settings.maxTokens === '' ? {} : { max_tokens: settings.maxTokens }),
  };
}

/** The playground's conversation: send a turn and stream its answer, stop it, clear everything. */
export function usePlaygroundChat() {
  const [turns, setTurns] = useState<ChatTurn[]>([]);
  const controller = useRef<AbortController | null>(null);
  const nextId = useRef(1);
  const isStreaming = turns.some((turn) => turn.role === 'assistant' && turn.status === 'streaming');

  const updateAnswer = (id: number, change: (turn: AssistantTurn) => Partial<AssistantTurn>) =>
    setTurns((current) =>
      current.map((turn) =>
        turn.id === id && turn.role === 'assistant' ? { ...turn, ...change(turn) } : turn,
      ),
    );

  async function lookUpCharge(id: number, requestId: string) {
    updateAnswer(id, () => ({ charge: { state: 'looking' } }));
    const quota = await findRequestCharge(requestId).catch(() => null);
    updateAnswer(id, () => ({ charge: quota === null ? { state: 'missing' } : { state: 'found', quota } }));
  }

  async function send(settings: ChatSettings, text: string) {
    const question: UserTurn = { id: nextId.current++, role: 'user', content: text };
    const answerId = nextId.current++;
    const answer: AssistantTurn = {
      id: answerId,
      role: 'assistant',
      content: '',
      model: settings.model,
      status: 'streaming',
      requestId: null,
      usage: null,
      charge: null,
      error: null,
    };
    const messages = conversationMessages(settings.systemPrompt, [...turns, question]);
    setTurns((current) => [...current, question, answer]);
    const abort = new AbortController();
    controller.current = abort;
    let requestId: string | null = null;
    try {
      const result = await streamChat({
        apiKey: settings.apiKey,
        body: requestBody(settings, messages),
        signal: abort.signal,
        onStart: (id) => {
          requestId = id;
          updateAnswer(answerId, () => ({ requestId: id }));
        },
        onText: (piece) => updateAnswer(answerId, (turn) => ({ content: turn.content + piece })),
      });
      updateAnswer(answerId, () => ({ status: result.isStopped ? 'stopped' : 'done', usage: result.usage }));
      if (requestId) await lookUpCharge(answerId, requestId);
    } catch (error) {
      const failure =
        error instanceof RelayCallError
          ? error
          : new RelayCallError(error instanceof Error ? error.message : String(error), null, null);
      updateAnswer(answerId, () => ({ status: 'failed', error: failure }));
    } finally {
      if (controller.current === abort) controller.current = null;
    }
  }

  return {
    turns,
    isStreaming,
    send: (settings: ChatSettings, text: string) => void send(settings, text),
    stop: () => controller.current?.abort(),
    clear: () => {
      controller.current?.abort();
      setTurns([]);
    },
  };
}
