import type { CacheControl, FilePart, ImagePart, TextPart, UserContentPart } from '../../canonical/chat';
import {
  invalidField,
  isJsonObject,
  requireObject,
  requireString,
  unexpectedTag,
  type Json,
} from './anthropic-request-fields';

/**
 * Anthropic's content blocks of a user turn (text, image, document) as canonical parts
 * (https://docs.anthropic.com/en/api/messages). Cache marks stay on the parts they were on.
 */

/** A cache mark as the client wrote it (ttl included); Anthropic judges its fields. */
export function readCacheControl(block: Json): { cache_control?: CacheControl } {
  const mark = block.cache_control;
  return isJsonObject(mark) && typeof mark.type === 'string'
    ? { cache_control: mark as unknown as CacheControl }
    : {};
}

export function convertAnthropicText(block: Json, path: string): TextPart {
  const text = requireString(block.text, `${path}.text`);
  return block.cache_control ? { type: 'text', text, ...readCacheControl(block) } : { type: 'text', text };
}

const IMAGE_SOURCES = ['base64', 'url', 'file'] as const;

/**
 * A base64 image becomes a data URL and a url source the URL itself, as OpenAI's image parts carry them. A
 * file of Anthropic's Files API has no canonical form but a file id, which only Anthropic can read.
 */
export function convertAnthropicImage(block: Json, path: string): ImagePart | FilePart {
  const source = requireObject(block.source, `${path}.source`);
  const cacheControl = readCacheControl(block);
  switch (source.type) {
    case 'base64': {
      const mediaType = requireString(source.media_type, `${path}.source.media_type`);
      const data = requireString(source.data, `${path}.source.data`);
      return { type: 'image_url', image_url: { url: `data:${mediaType};base64,${data}` }, ...cacheControl };
    }
    case 'url':
      return {
        type: 'image_url',
        image_url: { url: requireString(source.url, `${path}.source.url`) },
        ...cacheControl,
      };
    case 'file':
      return {
        type: 'file',
        file: { file_id: requireString(source.file_id, `${path}.source.file_id`) },
        ...cacheControl,
      };
    default:
      throw unexpectedTag(`${path}.source.type`, source.type, IMAGE_SOURCES);
  }
}

const DOCUMENT_SOURCES = ['base64', 'text', 'content', 'url', 'file'] as const;

/**
 * A document as OpenAI's file part: a PDF (or any base64 source) and a plain text as data URLs, the title as
 * the file name. A content source is its own blocks, which become parts of the turn; a URL travels in
 * file_data, where a translator that cannot fetch it says so.
 */
export function convertAnthropicDocument(block: Json, path: string): UserContentPart[] {
  const source = requireObject(block.source, `${path}.source`);
  const extra = {
    ...(typeof block.title === 'string' && block.title !== '' ? { filename: block.title } : {}),
  };
  const file = (fields: FilePart['file']): FilePart[] => [
    { type: 'file', file: { ...fields, ...extra }, ...readCacheControl(block) },
  ];
  switch (source.type) {
    case 'base64': {
      const mediaType = requireString(source.media_type, `${path}.source.media_type`);
      const data = requireString(source.data, `${path}.source.data`);
      return file({ file_data: `data:${mediaType};base64,${data}` });
    }
    case 'text': {
      const text = requireString(source.data, `${path}.source.data`);
      return file({ file_data: `data:text/plain;base64,${Buffer.from(text).toString('base64')}` });
    }
    case 'url':
      return file({ file_data: requireString(source.url, `${path}.source.url`) });
    case 'file':
      return file({ file_id: requireString(source.file_id, `${path}.source.file_id`) });
    case 'content':
      return typeof source.content === 'string'
        ? [{ type: 'text', text: source.content }]
        : convertNestedBlocks(source.content, `${path}.source.content`);
    default:
      throw unexpectedTag(`${path}.source.type`, source.type, DOCUMENT_SOURCES);
  }
}

/**
 * The text and image blocks inside a document's content source or a tool result. Other block types there
 * (search results, documents in tool results) have no canonical form and are left out.
 */
export function convertNestedBlocks(blocks: unknown, path: string): Array<TextPart | ImagePart | FilePart> {
  if (!Array.isArray(blocks)) throw invalidField(path, 'Input should be a valid list');
  const parts: Array<TextPart | ImagePart | FilePart> = [];
  for (let index = 0; index < blocks.length; index += 1) {
    const at = `${path}.${index}`;
    const block = requireObject(blocks[index], at);
    if (block.type === 'text') parts.push(convertAnthropicText(block, at));
    else if (block.type === 'image') parts.push(convertAnthropicImage(block, at));
    else requireString(block.type, `${at}.type`);
  }
  return parts;
}
