import type {
  AssistantMessage,
  ChatMessage,
  SystemMessage,
  ToolMessage,
  UserMessage,
} from '../../canonical/chat';

/** How one vendor writes each kind of canonical message, and when a turn joins the one before it. */
export interface TurnConverters<Message> {
  /** The text of a system or developer message. */
  systemText(message: SystemMessage): string;
  user(message: UserMessage): Message;
  assistant(message: AssistantMessage): Message;
  tool(message: ToolMessage): Message;
  /** Adds a user or assistant turn, joined into the last one when both are of one side and the vendor allows it. */
  appendMerged(messages: Message[], next: Message): void;
}

/**
 * Canonical messages → a vendor's system text and turns, for vendors that keep the system text apart and want
 * user and assistant turns to alternate: system and developer messages are joined (blank line between), user
 * and assistant turns go through `appendMerged`, tool results are kept as turns of their own.
 */
export function convertAlternatingTurns<Message>(
  input: readonly ChatMessage[],
  convert: TurnConverters<Message>,
): { system: string; messages: Message[] } {
  const system: string[] = [];
  const messages: Message[] = [];
  for (const message of input) {
    switch (message.role) {
      case 'system':
      case 'developer':
        system.push(convert.systemText(message));
        break;
      case 'user':
        convert.appendMerged(messages, convert.user(message));
        break;
      case 'assistant':
        convert.appendMerged(messages, convert.assistant(message));
        break;
      case 'tool':
        messages.push(convert.tool(message));
        break;
    }
  }
  return { system: system.filter((text) => text !== '').join('\n\n'), messages };
}
