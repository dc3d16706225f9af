import type { FilePart, ImagePart, TextPart, UserContentPart } from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';
import type {
  AnthropicDocumentBlockParam,
  AnthropicImageBlockParam,
  AnthropicImageMediaType,
  AnthropicTextBlockParam,
} from './anthropic-wire-types';

const VENDOR = 'Anthropic';

/** The image types Claude reads (https://docs.anthropic.com/en/docs/build-with-claude/vision). */
const IMAGE_MEDIA_TYPES: readonly string[] = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

const isImageMediaType = (value: string): value is AnthropicImageMediaType =>
  IMAGE_MEDIA_TYPES.includes(value);

interface DataUrl {
  mediaType: string;
  data: string;
}

function readDataUrl(url: string): DataUrl | null {
  const match = /^data:([^;,]+)(?:;[^,]*)?;base64,/i.exec(url);
  return match ? { mediaType: match[1].toLowerCase(), data: url.slice(match[0].length) } : null;
}

export function convertToAnthropicText(part: TextPart): AnthropicTextBlockParam {
  return part.cache_control
    ? { type: 'text', text: part.text, cache_control: part.cache_control }
    : { type: 'text', text: part.text };
}

/** A data URL becomes a base64 source, an http(s) URL a url source Anthropic fetches itself. */
export function convertToAnthropicImage(part: ImagePart): AnthropicImageBlockParam {
  const { url } = part.image_url;
  const cacheControl = part.cache_control ? { cache_control: part.cache_control } : {};
  const dataUrl = readDataUrl(url);
  if (dataUrl) {
    const mediaType = dataUrl.mediaType === 'image/jpg' ? 'image/jpeg' : dataUrl.mediaType;
    if (!isImageMediaType(mediaType)) {
      throw new UnsupportedOptionError(VENDOR, `images of type ${mediaType}`, 'use JPEG, PNG, GIF or WebP');
    }
    return {
      type: 'image',
      source: { type: 'base64', media_type: mediaType, data: dataUrl.data },
      ...cacheControl,
    };
  }
  if (/^https?:\/\//i.test(url)) return { type: 'image', source: { type: 'url', url }, ...cacheControl };
  throw new UnsupportedOptionError(VENDOR, 'this image URL', 'give an https URL or a base64 data URL');
}

/**
 * A PDF becomes a base64 document, a text file a plain-text document
 * (https://docs.anthropic.com/en/docs/build-with-claude/pdf-support). OpenAI file ids mean nothing to
 * Anthropic, so they are refused rather than dropped.
 */
export function convertToAnthropicDocument(part: FilePart): AnthropicDocumentBlockParam {
  const { file_data: fileData, file_id: fileId, filename } = part.file;
  if (!fileData) {
    throw new UnsupportedOptionError(VENDOR, 'file parts by file_id', fileId ? `send the file's data` : '');
  }
  const dataUrl = readDataUrl(fileData) ?? {
    mediaType: filename?.toLowerCase().endsWith('.pdf') ? 'application/pdf' : '',
    data: fileData,
  };
  const extra = {
    ...(filename ? { title: filename } : {}),
    ...(part.cache_control ? { cache_control: part.cache_control } : {}),
  };
  if (dataUrl.mediaType === 'application/pdf') {
    return {
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: dataUrl.data },
      ...extra,
    };
  }
  if (dataUrl.mediaType === 'text/plain') {
    const text = Buffer.from(dataUrl.data, 'base64').toString('utf8');
    return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: text }, ...extra };
  }
  throw new UnsupportedOptionError(
    VENDOR,
    `files of type ${dataUrl.mediaType || 'unknown'}`,
    'send a PDF or a text/plain file as a base64 data URL',
  );
}

export type AnthropicUserBlock =
  AnthropicTextBlockParam | AnthropicImageBlockParam | AnthropicDocumentBlockParam;

/** Empty text blocks are left out: Anthropic refuses them. */
export function convertToAnthropicUserContent(content: string | UserContentPart[]): AnthropicUserBlock[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  const blocks: AnthropicUserBlock[] = [];
  for (const part of content) {
    switch (part.type) {
      case 'text':
        if (part.text !== '') blocks.push(convertToAnthropicText(part));
        break;
      case 'image_url':
        blocks.push(convertToAnthropicImage(part));
        break;
      case 'file':
        blocks.push(convertToAnthropicDocument(part));
        break;
      case 'input_audio':
        throw new UnsupportedOptionError(VENDOR, 'audio input');
    }
  }
  return blocks;
}
