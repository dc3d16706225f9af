import type { AssistantMessage, ChatMessage, ImagePart, TextPart, UserContentPart } from '../canonical/chat';

/**
 * A stored conversation (canonical messages) as Responses API input items
 * (https://platform.openai.com/docs/api-reference/responses/input-items), for
 * GET /v1/responses/{id}/input_items. The stored row keeps canonical messages, not the items the client sent,
 * so each item's id is derived from the response id and the item's position: the same on every read, which
 * the `after` cursor needs. Thinking blocks are not input the client wrote and are left out.
 */

type InputContent =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' | 'low' | 'high' }
  | { type: 'input_file'; file_data?: string; filename?: string }
  | { type: 'input_audio'; input_audio: { data: string; format: string } };

export type InputItem =
  | {
      type: 'message';
      id: string;
      role: 'user' | 'system' | 'developer';
      status: 'completed';
      content: InputContent[];
    }
  | {
      type: 'message';
      id: string;
      role: 'assistant';
      status: 'completed';
      content: Array<{ type: 'output_text'; text: string; annotations: never[] }>;
    }
  | {
      type: 'function_call';
      id: string;
      call_id: string;
      name: string;
      arguments: string;
      status: 'completed';
    }
  | { type: 'function_call_output'; id: string; call_id: string; output: string; status: 'completed' };

function convertPart(part: UserContentPart): InputContent {
  switch (part.type) {
    case 'text':
      return { type: 'input_text', text: part.text };
    case 'image_url':
      return { type: 'input_image', image_url: part.image_url.url, detail: part.image_url.detail ?? 'auto' };
    case 'file':
      return {
        type: 'input_file',
        ...(part.file.file_data !== undefined && { file_data: part.file.file_data }),
        ...(part.file.filename !== undefined && { filename: part.file.filename }),
      };
    case 'input_audio':
      return { type: 'input_audio', input_audio: part.input_audio };
  }
}

function textOf(content: string | Array<TextPart | ImagePart> | AssistantMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

type ItemWithoutId = InputItem extends infer Item
  ? Item extends InputItem
    ? Omit<Item, 'id'>
    : never
  : never;

function convertMessage(message: ChatMessage): ItemWithoutId[] {
  switch (message.role) {
    case 'system':
    case 'developer':
    case 'user': {
      const parts =
        typeof message.content === 'string'
          ? [{ type: 'text', text: message.content } as const]
          : message.content;
      return [{ type: 'message', role: message.role, status: 'completed', content: parts.map(convertPart) }];
    }
    case 'assistant': {
      const text = textOf(message.content);
      const items: ItemWithoutId[] =
        text === ''
          ? []
          : [
              {
                type: 'message',
                role: 'assistant',
                status: 'completed',
                content: [{ type: 'output_text', text, annotations: [] }],
              },
            ];
      for (const call of message.tool_calls ?? []) {
        items.push({
          type: 'function_call',
          call_id: call.id,
          name: call.function.name,
          arguments: call.function.arguments,
          status: 'completed',
        });
      }
      return items;
    }
    case 'tool':
      return [
        {
          type: 'function_call_output',
          call_id: message.tool_call_id,
          output: textOf(message.content),
          status: 'completed',
        },
      ];
  }
}

const idPrefixes: Record<InputItem['type'], string> = {
  message: 'msg',
  function_call: 'fc',
  function_call_output: 'fco',
};

/** The items in conversation order, each id `<prefix>_<the response id's hex><position as 8 hex digits>`. */
export function convertToInputItems(responseId: string, conversation: ChatMessage[]): InputItem[] {
  const hex = responseId.replace(/^resp_/, '');
  return conversation.flatMap(convertMessage).map((item, position) => {
    const id = `${idPrefixes[item.type]}_${hex}${position.toString(16).padStart(8, '0')}`;
    return { ...item, id } as InputItem;
  });
}
