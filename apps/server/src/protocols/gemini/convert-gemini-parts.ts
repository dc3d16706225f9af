import type { AudioPart, FilePart, ImagePart, TextPart } from '../../canonical/chat';
import { guessMimeTypeFromUrl } from '../../providers/gemini/gemini-media';
import { readObject, readOptionalString, readString, type Json } from './gemini-request-fields';

/** OpenAI's input_audio formats are file extensions; Gemini names audio by media type. */
const audioFormats: Record<string, string> = {
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
};

function audioFormatOf(mimeType: string): string {
  return audioFormats[mimeType] ?? mimeType.slice('audio/'.length);
}

export type GeminiMediaPart = ImagePart | AudioPart | FilePart;

/**
 * Inline media (https://ai.google.dev/api/caching#Blob) as the canonical part its media type calls for:
 * images as data URLs, audio as input_audio, anything else (PDF, text, video) as a file with a data URL, which
 * the Gemini translator sends back inline with the same media type.
 */
export function convertGeminiInlineData(value: unknown, path: string): GeminiMediaPart {
  const blob = readObject(value, path);
  const mimeType = readString(blob.mimeType, `${path}.mimeType`).toLowerCase();
  const data = readString(blob.data, `${path}.data`);
  if (mimeType.startsWith('image/'))
    return { type: 'image_url', image_url: { url: `data:${mimeType};base64,${data}` } };
  if (mimeType.startsWith('audio/'))
    return { type: 'input_audio', input_audio: { data, format: audioFormatOf(mimeType) } };
  return { type: 'file', file: { file_data: `data:${mimeType};base64,${data}` } };
}

/**
 * A file by URI (https://ai.google.dev/api/caching#FileData): an image as an image URL; anything else (a PDF,
 * a video, a Files API upload) as a file whose id is the URI. Another vendor cannot fetch a Files API URI, and
 * says so; a Gemini channel gets the client's own part on the pass-through lane.
 */
export function convertGeminiFileData(value: unknown, path: string): GeminiMediaPart {
  const file = readObject(value, path);
  const fileUri = readString(file.fileUri, `${path}.fileUri`);
  const mimeType =
    readOptionalString(file.mimeType, `${path}.mimeType`)?.toLowerCase() ?? guessMimeTypeFromUrl(fileUri);
  if (mimeType?.startsWith('image/')) return { type: 'image_url', image_url: { url: fileUri } };
  const filename = fileUri.split(/[/?#]/).filter(Boolean).at(-1);
  return { type: 'file', file: { file_id: fileUri, ...(filename ? { filename } : {}) } };
}

/** The media of a part, or null when it has none. */
export function convertGeminiMedia(part: Json, path: string): GeminiMediaPart | null {
  if (part.inlineData !== undefined) return convertGeminiInlineData(part.inlineData, `${path}.inlineData`);
  if (part.fileData !== undefined) return convertGeminiFileData(part.fileData, `${path}.fileData`);
  return null;
}

export const textPart = (text: string): TextPart => ({ type: 'text', text });
