import type { GeminiBlob } from './gemini-wire-types';

const DATA_URL = /^data:([^;,]+)((?:;[^;,]*)*);base64,(.*)$/s;

/** `data:<media type>;base64,<data>` as Gemini's inlineData; null for any other URL. */
export function parseDataUrl(url: string): GeminiBlob | null {
  const match = DATA_URL.exec(url);
  if (!match) return null;
  return { mimeType: match[1].toLowerCase(), data: match[3] };
}

/**
 * Media types by file extension, for Gemini's fileData, which needs one. Formats Gemini reads:
 * https://ai.google.dev/gemini-api/docs/image-understanding, …/audio, …/video, …/document-processing.
 */
const mimeTypesByExtension: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  heic: 'image/heic',
  heif: 'image/heif',
  pdf: 'application/pdf',
  txt: 'text/plain',
  wav: 'audio/wav',
  mp3: 'audio/mp3',
  aiff: 'audio/aiff',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  mp4: 'video/mp4',
  mpeg: 'video/mpeg',
  mov: 'video/mov',
  webm: 'video/webm',
};

/** The media type an https (or gs://) URL's file extension names, or null. */
export function guessMimeTypeFromUrl(url: string): string | null {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return null;
  }
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return null;
  return mimeTypesByExtension[path.slice(dot + 1).toLowerCase()] ?? null;
}

/** OpenAI's input_audio formats ('wav', 'mp3') as Gemini's audio media types. */
export function audioMimeType(format: string): string {
  const type = mimeTypesByExtension[format.toLowerCase()];
  return type?.startsWith('audio/') ? type : `audio/${format.toLowerCase()}`;
}
