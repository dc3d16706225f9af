import type { CacheControl, FilePart, ImagePart, UserContentPart } from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';
import type {
  BedrockCachePoint,
  BedrockContentBlock,
  BedrockDocumentBlock,
  BedrockDocumentFormat,
  BedrockImageBlock,
  BedrockImageFormat,
} from './bedrock-converse-types';
import { BEDROCK } from './bedrock-converse-types';

const imageFormats: Readonly<Record<string, BedrockImageFormat>> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

const documentFormats: Readonly<Record<string, BedrockDocumentFormat>> = {
  'application/pdf': 'pdf',
  'text/csv': 'csv',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'text/html': 'html',
  'text/plain': 'txt',
  'text/markdown': 'md',
};

/** `data:<media type>[;params];base64,<data>` → its parts, or null for any other URL. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | null {
  const match = /^data:([^;,]+)(?:;[^;,]*)*;base64,/i.exec(url);
  return match ? { mediaType: match[1]!.toLowerCase(), data: url.slice(match[0].length) } : null;
}

/** Anthropic's cache_control mark → the cachePoint block Bedrock puts after the marked block. */
export function toCachePoint(mark: CacheControl | undefined): { cachePoint: BedrockCachePoint }[] {
  if (!mark) return [];
  const ttl = mark.ttl === '1h' || mark.ttl === '5m' ? mark.ttl : undefined;
  return [{ cachePoint: ttl ? { type: 'default', ttl } : { type: 'default' } }];
}

/** Converse takes image bytes only (or S3 locations): an https URL is refused rather than fetched by the relay. */
export function convertToBedrockImage(part: ImagePart): BedrockImageBlock {
  const parsed = parseDataUrl(part.image_url.url);
  if (!parsed) {
    throw new UnsupportedOptionError(
      BEDROCK,
      'image URLs',
      'send images as base64 data URLs (data:image/png;base64,…)',
    );
  }
  const format = imageFormats[parsed.mediaType];
  if (!format) throw new UnsupportedOptionError(BEDROCK, `images of type ${parsed.mediaType}`);
  return { format, source: { bytes: parsed.data } };
}

/**
 * Document names may hold only letters, digits, single spaces, hyphens, parentheses and square brackets
 * (DocumentBlock in the API reference), and must differ within a request.
 */
function documentName(filename: string | undefined, usedNames: Set<string>): string {
  const stem = (filename ?? '').replace(/\.[A-Za-z0-9]+$/, '');
  const base =
    stem
      .replace(/[^A-Za-z0-9\s\-()[\]]/g, '-')
      .replace(/\s+/g, ' ')
      .trim() || 'document';
  let name = base;
  for (let counter = 2; usedNames.has(name); counter += 1) name = `${base} (${counter})`;
  usedNames.add(name);
  return name;
}

function convertToBedrockDocument(part: FilePart, usedNames: Set<string>): BedrockDocumentBlock {
  if (!part.file.file_data) {
    throw new UnsupportedOptionError(BEDROCK, 'file ids', 'send the file as a base64 data URL in file_data');
  }
  const parsed = parseDataUrl(part.file.file_data);
  if (!parsed) throw new UnsupportedOptionError(BEDROCK, 'file data that is not a base64 data URL');
  const format = documentFormats[parsed.mediaType];
  if (!format) throw new UnsupportedOptionError(BEDROCK, `documents of type ${parsed.mediaType}`);
  return { format, name: documentName(part.file.filename, usedNames), source: { bytes: parsed.data } };
}

/**
 * One part of a user message → its Converse blocks. Bedrock refuses blank text blocks, so empty text is
 * dropped; a cache mark becomes a cachePoint after the block.
 */
export function convertToBedrockUserBlocks(
  part: UserContentPart,
  usedNames: Set<string>,
): BedrockContentBlock[] {
  switch (part.type) {
    case 'text':
      return part.text === '' ? [] : [{ text: part.text }, ...toCachePoint(part.cache_control)];
    case 'image_url':
      return [{ image: convertToBedrockImage(part) }, ...toCachePoint(part.cache_control)];
    case 'file':
      return [{ document: convertToBedrockDocument(part, usedNames) }, ...toCachePoint(part.cache_control)];
    case 'input_audio':
      throw new UnsupportedOptionError(BEDROCK, 'audio input');
  }
}
