import type {
  AssistantContentPart,
  AssistantMessage,
  ImagePart,
  UserContentPart,
} from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';
import { audioMimeType, guessMimeTypeFromUrl, parseDataUrl } from './gemini-media';
import type { GeminiBlob, GeminiPart } from './gemini-wire-types';

export const GEMINI = 'Gemini';

/**
 * An image by data URL goes inline; by https URL as fileData, which Gemini fetches itself
 * (https://ai.google.dev/gemini-api/docs/file-input-methods) but only with a media type, read here from the
 * file extension. A URL without a known extension is refused rather than sent with a guessed type.
 */
export function convertToGeminiImage(part: ImagePart): GeminiPart {
  const { url } = part.image_url;
  const inline = parseDataUrl(url);
  if (inline) return { inlineData: inline };
  const mimeType = guessMimeTypeFromUrl(url);
  if (!mimeType) {
    throw new UnsupportedOptionError(
      GEMINI,
      'image URLs without a file extension',
      'send the image as a data: URL or a URL ending in .png, .jpg, .webp, .gif, .heic or .heif',
    );
  }
  return { fileData: { mimeType, fileUri: url } };
}

/** A document (PDF, text) as OpenAI's file part: only inline data travels, Gemini cannot read OpenAI file ids. */
function convertToGeminiFile(file: { file_data?: string; file_id?: string }): GeminiPart {
  const inline = file.file_data ? parseDataUrl(file.file_data) : null;
  if (inline) return { inlineData: inline };
  if (file.file_data) {
    // OpenAI also takes bare base64 in file_data; without a media type, PDF is what it documents.
    return { inlineData: { mimeType: 'application/pdf', data: file.file_data } };
  }
  throw new UnsupportedOptionError(GEMINI, 'file_id', 'send the file inline as file_data');
}

export function convertToGeminiUserPart(part: UserContentPart): GeminiPart | null {
  switch (part.type) {
    case 'text':
      return part.text === '' ? null : { text: part.text };
    case 'image_url':
      return convertToGeminiImage(part);
    case 'input_audio':
      return {
        inlineData: { mimeType: audioMimeType(part.input_audio.format), data: part.input_audio.data },
      };
    case 'file':
      return convertToGeminiFile(part.file);
  }
}

/** Images in a tool result: inline only, as functionResponse.parts (Gemini 3 multimodal function responses). */
export function convertToGeminiToolImage(part: ImagePart): GeminiBlob {
  const inline = parseDataUrl(part.image_url.url);
  if (!inline) {
    throw new UnsupportedOptionError(GEMINI, 'image URLs in tool results', 'send the image as a data: URL');
  }
  return inline;
}

/**
 * The start of an assistant turn as Gemini parts: its content as a list (a string is one text part), and its
 * reasoning_content as a leading thought part when no thinking part carries the reasoning already. Used both
 * for requests to Gemini and for answers to Gemini clients.
 */
export function startGeminiAssistantParts(message: AssistantMessage): {
  content: AssistantContentPart[];
  parts: GeminiPart[];
} {
  const content =
    typeof message.content === 'string'
      ? [{ type: 'text' as const, text: message.content }]
      : (message.content ?? []);
  const parts: GeminiPart[] = [];
  if (message.reasoning_content && !content.some((part) => part.type === 'thinking'))
    parts.push({ text: message.reasoning_content, thought: true });
  return { content, parts };
}
